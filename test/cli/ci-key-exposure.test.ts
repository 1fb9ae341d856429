/**
 * Where the example CI files let the account's key go, read from the files themselves (parsed with
 * `yaml`): a job that reads a key names the environment (GitHub) or the protected environment
 * (GitLab) the key lives in; no job whose code a pull request can change reads a key; the jobs that
 * hold one run the default branch's code over the pull request's config as data; what they judge
 * plans by (the policy rules) is the default branch's, and the sync and the daemon pass it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readWorkflow, repoRoot, type Job, type Workflow } from './support/github-actions.js';

const workflowDir = 'examples/ci/.github/workflows';
const githubWorkflows: ReadonlyArray<readonly [string, Workflow]> = readdirSync(join(repoRoot, workflowDir))
  .filter((f) => f.endsWith('.yml'))
  .map((f) => [f, readWorkflow(`${workflowDir}/${f}`)] as const);

/** Triggers whose jobs run the pull request's own workflow file, or hand secrets to its code. */
const pullRequestTriggers = ['pull_request', 'pull_request_target'];

const text = (job: Job): string => JSON.stringify(job);
const readsApiKey = (job: Job): boolean => /secrets\.[A-Z0-9_]*SVC_API_KEY\b/.test(text(job));
const readsSecret = (job: Job): boolean => /secrets\./.test(text(job));
const isPullRequestWorkflow = (wf: Workflow): boolean =>
  Object.keys(wf.on).some((t) => pullRequestTriggers.includes(t));

describe('GitHub workflows: the key never meets code a branch controls', () => {
  it('there are both halves: an unprivileged pull-request workflow and a privileged one', () => {
    expect(githubWorkflows.filter(([, wf]) => isPullRequestWorkflow(wf)).length).toBeGreaterThan(0);
    expect(githubWorkflows.filter(([, wf]) => !isPullRequestWorkflow(wf)).length).toBeGreaterThan(0);
  });

  it.each(githubWorkflows)('%s: every job that reads an API key declares its environment', (_, wf) => {
    const keyJobs = Object.entries(wf.jobs).filter(([, job]) => readsApiKey(job));
    for (const [name, job] of keyJobs)
      expect({ name, environment: job.environment }).toEqual({
        name,
        environment: expect.any(String) as unknown,
      });
  });

  it.each(githubWorkflows)(
    '%s: a workflow a pull request triggers reads no secret and names no environment',
    (_, wf) => {
      expect(Object.keys(wf.on)).not.toContain('pull_request_target');
      if (!isPullRequestWorkflow(wf)) return;
      // Its workflow file, lockfile and .npmrc are the pull request's: nothing here may hold a key.
      expect(Object.keys(wf.on)).toEqual(['pull_request']);
      for (const [name, job] of Object.entries(wf.jobs)) {
        expect({ name, secrets: readsSecret(job), environment: job.environment }).toEqual({
          name,
          secrets: false,
          environment: undefined,
        });
      }
    },
  );

  it.each(githubWorkflows.filter(([, wf]) => !isPullRequestWorkflow(wf)))(
    '%s: the jobs holding a key check out the default branch, install no scripts, and plan pull requests from an artifact',
    (_, wf) => {
      const triggers = Object.keys(wf.on);
      expect(triggers).toEqual(expect.arrayContaining(['workflow_run', 'push']));
      for (const [name, job] of Object.entries(wf.jobs).filter(([, j]) => readsApiKey(j))) {
        for (const step of job.steps) {
          // No ref or repository: the checkout is the commit the event names, the default branch's.
          if (step.uses?.startsWith('actions/checkout@'))
            expect({ name, with: step.with }).toEqual({ name, with: { 'persist-credentials': false } });
          if (step.run?.startsWith('npm ')) expect(step.run).toBe('npm ci --ignore-scripts');
          expect(step.run ?? '').not.toMatch(
            /github\.event\.workflow_run\.head_(sha|branch)|pull_request\.head/,
          );
        }
        if (!/workflow_run/.test(job.if ?? '')) continue;
        // A pull request's config arrives as the artifact its own workflow uploaded, after validation.
        expect(job.if).toContain("github.event.workflow_run.conclusion == 'success'");
        const download = job.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'));
        expect(download?.with?.['run-id']).toBe('${{ github.event.workflow_run.id }}');
      }
    },
  );

  it.each(githubWorkflows)(
    '%s: plans and syncs are judged by policies/ (which triggers it), and the sync never forces',
    (_, wf) => {
      const paths = Object.values(wf.on)
        .filter((t): t is { paths: string[] } => typeof t === 'object' && t !== null && 'paths' in t)
        .map((t) => t.paths);
      for (const list of paths) expect(list).toContain('policies/**');
      for (const job of Object.values(wf.jobs)) {
        for (const step of job.steps) {
          const run = step.run ?? '';
          if (/acctsync sync /.test(run)) {
            expect(run).toContain('--policy policies/');
            expect(run).not.toContain('--force');
          }
          if (/acctsync plan .*--output markdown/.test(run)) expect(run).toContain('--policy policies/');
        }
      }
    },
  );
});

interface GitlabJob {
  readonly script?: string[];
  readonly rules?: { if: string }[];
  readonly environment?: { name: string; action?: string };
}

describe('.gitlab-ci.yml: the key never meets code a branch controls', () => {
  const pipeline = parse(readFileSync(join(repoRoot, 'examples/ci/.gitlab-ci.yml'), 'utf8')) as Record<
    string,
    unknown
  >;
  const jobs = Object.entries(pipeline).filter(
    (entry): entry is [string, GitlabJob] =>
      !['default', 'stages', 'workflow', 'variables'].includes(entry[0]) &&
      Array.isArray((entry[1] as GitlabJob).script),
  );
  /** A job reads the key when acctsync talks to the account in it (validate does not). */
  const readsApiKey = (job: GitlabJob): boolean =>
    job.script!.some((line) => /acctsync (plan|sync) /.test(line));
  const runsForMergeRequests = (job: GitlabJob): boolean =>
    (job.rules ?? []).some((r) => /\$CI_PIPELINE_SOURCE == "merge_request_event"/.test(r.if));

  it('every job that reads the key names the environment its protected variables are scoped to', () => {
    const keyJobs = jobs.filter(([, job]) => readsApiKey(job));
    expect(keyJobs.map(([name]) => name).sort()).toEqual([
      'acctsync-drift',
      'acctsync-plan',
      'acctsync-sync',
    ]);
    for (const [name, job] of keyJobs) {
      expect({ name, environment: job.environment?.name }).toEqual({ name, environment: 'account' });
      // Protected variables reach only protected branches: these run on the default branch only.
      for (const rule of job.rules ?? [])
        expect(rule.if).toContain('$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH');
    }
  });

  it("no job of a merge request's pipeline (the branch's own .gitlab-ci.yml) reads the key", () => {
    const mergeRequestJobs = jobs.filter(([, job]) => runsForMergeRequests(job));
    expect(mergeRequestJobs.length).toBeGreaterThan(0);
    for (const [name, job] of mergeRequestJobs) {
      expect({ name, readsKey: readsApiKey(job), environment: job.environment }).toEqual({
        name,
        readsKey: false,
        environment: undefined,
      });
    }
  });

  it("the plan of a merge request takes only its account/ files, and plans and syncs are judged by the default branch's policies/", () => {
    const plan = pipeline['acctsync-plan'] as GitlabJob;
    expect(plan.script).toContain('rm -rf account && git checkout FETCH_HEAD -- account/');
    expect(plan.script!.filter((l) => /git checkout/.test(l))).toHaveLength(1);
    const sync = (pipeline['acctsync-sync'] as GitlabJob).script!.find((l) => /acctsync sync /.test(l));
    expect(sync).toContain('--policy policies/');
    expect(sync).not.toContain('--force');
    expect(plan.script!.find((l) => /acctsync plan /.test(l))).toContain('--policy policies/');
    expect((pipeline.default as { before_script: string[] }).before_script).toEqual([
      'npm ci --ignore-scripts',
    ]);
  });
});

describe('CODEOWNERS examples protect the policy rules and the pipelines', () => {
  it.each([
    ['examples/ci/.github/CODEOWNERS', '/.github/workflows/'],
    ['examples/ci/.gitlab/CODEOWNERS', '/.gitlab-ci.yml'],
  ])('%s', (file, pipelinePath) => {
    const owned = readFileSync(join(repoRoot, file), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'))
      .map((l) => l.split(/\s+/));
    const paths = owned.map(([path]) => path);
    expect(paths).toEqual(
      expect.arrayContaining(['/policies/', pipelinePath, '/package-lock.json', '/.npmrc']),
    );
    for (const [path, ...owners] of owned)
      expect({ path, owners: owners.length > 0 }).toEqual({ path, owners: true });
  });
});
