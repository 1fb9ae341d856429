/**
 * The CI workflows of examples/ci (laid out like a config repository's root), run as GitHub Actions and GitLab CI would run their steps: each
 * `run`/`script` through bash in a config repository where `npx acctsync` is this build, with the
 * environment those systems set, against an emulator over HTTP. The comment and note steps run
 * against a stand-in of the forge's API that keeps the comments. A renamed flag fails here.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { useAccount } from '../support/use-account.js';
import {
  configRepository,
  readWorkflow,
  repoRoot,
  runJob,
  shell,
  stubRepository,
  type Comment,
  type JobRun,
  type Workflow,
} from './support/github-actions.js';

const run = promisify(execFile);
let dir: string;
const account = useAccount();
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acctsync-ci-'));
  configRepository(dir);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function writeAccount(policies: string[], extra = ''): void {
  mkdirSync(join(dir, 'account'), { recursive: true });
  const body = policies.map((p) => `  ${p}:\n    description: ${p} networks\n${extra}`).join('');
  writeFileSync(join(dir, 'account/network.yaml'), `version: 1\nscope: ci\nip_policies:\n${body}`);
}

// ---------------------------------------------------------------------------------------------
// GitHub Actions

const github = readWorkflow('examples/ci/.github/workflows/acctsync.yml');
const githubPr = readWorkflow('examples/ci/.github/workflows/acctsync-pr.yml');

/** Runs a job of the workflow in the config repository against the test's emulator. */
function runGithubJob(name: string, comments: Comment[] = []): Promise<JobRun> {
  return runJob(github, name, dir, account.env, comments);
}

/**
 * A push to a pull request: its workflow validates and uploads account/, then the privileged
 * workflow's plan job (on the default branch's checkout) plans what was uploaded.
 */
async function pullRequest(comments: Comment[] = []): Promise<JobRun> {
  const validated = await runJob(githubPr, 'validate', dir, {});
  expect(validated.failedStep).toBeUndefined();
  return runGithubJob('plan', comments);
}

describe('examples/ci/.github/workflows/acctsync.yml', { timeout: 180_000 }, () => {
  it('plans after the pull request workflow succeeded, syncs on the default branch, one sync at a time', () => {
    expect(github.on.workflow_run).toEqual({ workflows: [githubPr.name], types: ['completed'] });
    expect(github.jobs.plan!.if).toContain("github.event.workflow_run.conclusion == 'success'");
    expect(github.jobs.sync!.if).toBe("github.event_name == 'push'");
    expect(github.jobs.sync!.concurrency).toEqual({ group: 'acctsync-sync', 'cancel-in-progress': false });
  });

  it("plans the pull request's account/, not the default branch's, with the default branch's policies", async () => {
    writeAccount(['office']);
    expect((await runJob(githubPr, 'validate', dir, {})).failedStep).toBeUndefined();
    // The default branch's checkout, as the privileged job gets it, has another account/.
    writeAccount(['main-only']);
    const comments: Comment[] = [];
    const run = await runGithubJob('plan', comments);
    expect(run.failedStep).toBeUndefined();
    expect(comments[0]!.body).toContain('ip_policies/office');
    expect(comments[0]!.body).not.toContain('main-only');
  });

  it('a pull request: one plan comment, updated on each push, the plan in the job summary', async () => {
    writeAccount(['office']);
    const comments: Comment[] = [];
    const first = await pullRequest(comments);
    expect(first.failedStep).toBeUndefined();
    expect(first.outputs.plan).toEqual({ exitcode: '2', comment: 'true' });
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/^<!-- acctsync-plan -->\n/);
    expect(comments[0]!.body).toContain('ip_policies/office');
    expect(first.summary).toContain('ip_policies/office');

    writeAccount(['office', 'lab']);
    const second = await pullRequest(comments);
    expect(second.failedStep).toBeUndefined();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('ip_policies/lab');
  });

  it('an invalid config fails the validate job with annotations on the lines, and uploads nothing to plan', async () => {
    writeAccount(['office'], '    descripton: typo\n');
    const run = await runJob(githubPr, 'validate', dir, {});
    expect(run.failedStep).toBe('Validate');
    expect(run.stderr).toContain('::error file=account/network.yaml,line=6,col=5::');
    await expect(runGithubJob('plan')).rejects.toThrow('no artifact acctsync-config');
  });

  it('an unreachable API fails the plan step instead of posting a plan', async () => {
    writeAccount(['office']);
    await account.close();
    const comments: Comment[] = [];
    const run = await pullRequest(comments);
    expect(run.failedStep).toBe('Plan');
    expect(run.outputs.plan).toEqual({ exitcode: '1' });
    expect(comments).toEqual([]);
  });

  it('the default branch syncs the account; the next pull request plans no change', async () => {
    writeAccount(['office', 'lab']);
    expect((await runGithubJob('sync')).failedStep).toBeUndefined();
    const comments: Comment[] = [];
    const plan = await pullRequest(comments);
    expect(plan.outputs.plan).toEqual({ exitcode: '0', comment: 'true' });
    expect(comments[0]!.body).toContain('No changes');
  });
});

// ---------------------------------------------------------------------------------------------
// GitLab CI

const gitlab = parse(readFileSync(join(repoRoot, 'examples/ci/.gitlab-ci.yml'), 'utf8')) as Record<
  string,
  {
    script?: string[];
    rules?: { if: string }[];
    resource_group?: string;
    environment?: { name: string; action?: string };
  }
>;

const git = (args: string[]) =>
  run('git', ['-c', 'user.name=dev', '-c', 'user.email=dev@example.com', ...args], { cwd: dir });

/**
 * A push to merge request 9: the config repository becomes its own `origin`, and its account/ as it
 * is now is committed under `refs/merge-requests/9/head`, where GitLab keeps a merge request's head.
 */
async function pushMergeRequest(): Promise<void> {
  if (!existsSync(join(dir, '.git'))) {
    await git(['init', '-q']);
    await git(['remote', 'add', 'origin', dir]);
  }
  mkdirSync(join(dir, 'account'), { recursive: true });
  await git(['add', '-A', 'account']);
  await git(['commit', '-q', '--allow-empty', '-m', 'merge request 9']);
  await git(['update-ref', 'refs/merge-requests/9/head', 'HEAD']);
}

/** A stand-in for GitLab's merge-request notes API that checks the token. */
async function notesApi(): Promise<{ server: Server; url: string; notes: Comment[] }> {
  const notes: Comment[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.headers['private-token'] !== 'glpat-test') return send(401, {});
      const path = new URL(req.url!, 'http://x').pathname;
      const m = /^\/api\/v4\/projects\/42\/merge_requests\/9\/notes(?:\/(\d+))?$/.exec(path);
      if (!m) return send(404, {});
      if (req.method === 'GET') return send(200, notes);
      const text = (JSON.parse(body) as { body: string }).body;
      if (req.method === 'POST') {
        notes.push({ id: notes.length + 1, body: text });
        return send(201, notes.at(-1));
      }
      const note = notes.find((n) => n.id === Number(m[1]));
      if (req.method === 'PUT' && note) {
        note.body = text;
        return send(200, note);
      }
      send(405, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}/api/v4`, notes };
}

/** A job's script lines, each run in turn as the GitLab runner does, stopping at the first failure. */
async function runGitlabJob(
  name: string,
  env: Record<string, string>,
): Promise<{ failedLine?: string; stderr: string }> {
  let stderr = '';
  for (const line of gitlab[name]!.script!) {
    const run = await shell(dir, line, {
      GITLAB_CI: 'true',
      ...account.env,
      ...env,
    });
    stderr += run.stderr;
    if (run.status !== 0) return { failedLine: line, stderr };
  }
  return { stderr };
}

describe('examples/ci/.gitlab-ci.yml', { timeout: 180_000 }, () => {
  it('validates on merge requests; plans a merge request and syncs on the default branch, in one resource group', () => {
    expect(gitlab['acctsync-validate']!.rules).toEqual([
      { if: '$CI_PIPELINE_SOURCE == "merge_request_event"' },
    ]);
    expect(gitlab['acctsync-plan']!.rules).toEqual([
      {
        if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $CI_PIPELINE_SOURCE != "merge_request_event" && $ACCTSYNC_MR =~ /^[0-9]+$/',
      },
    ]);
    expect(gitlab['acctsync-sync']!.rules).toEqual([
      { if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $CI_PIPELINE_SOURCE == "push"' },
    ]);
    expect(gitlab['acctsync-sync']!.resource_group).toBe('acctsync-account');
  });

  it('a merge request: one plan note, updated on each push; then the sync converges', async () => {
    const api = await notesApi();
    try {
      const env = {
        CI_API_V4_URL: api.url,
        CI_PROJECT_ID: '42',
        ACCTSYNC_MR: '9',
        GITLAB_TOKEN: 'glpat-test',
      };
      writeAccount(['office']);
      await pushMergeRequest();
      // The default branch's checkout, where the plan job runs, has an account/ of its own.
      writeAccount(['main-only']);
      expect((await runGitlabJob('acctsync-plan', env)).failedLine).toBeUndefined();
      expect(api.notes).toHaveLength(1);
      expect(api.notes[0]!.body).toContain('ip_policies/office');
      expect(api.notes[0]!.body).not.toContain('main-only');
      writeAccount(['office', 'lab']);
      await pushMergeRequest();
      expect((await runGitlabJob('acctsync-plan', env)).failedLine).toBeUndefined();
      expect(api.notes).toHaveLength(1);
      expect(api.notes[0]!.body).toContain('ip_policies/lab');

      expect((await runGitlabJob('acctsync-sync', {})).failedLine).toBeUndefined();
      expect((await runGitlabJob('acctsync-plan', env)).failedLine).toBeUndefined();
      expect(api.notes[0]!.body).toContain('No changes');
    } finally {
      api.server.close();
    }
  });

  it('an invalid config fails the merge request pipeline and the plan job at validate, and posts nothing', async () => {
    const api = await notesApi();
    try {
      writeAccount(['office'], '    descripton: typo\n');
      const validate = await runGitlabJob('acctsync-validate', {});
      expect(validate.failedLine).toBe('npx --no-install acctsync validate account/');
      expect(validate.stderr).toContain('account/network.yaml:6:5: error: unknown field descripton');
      await pushMergeRequest();
      const run = await runGitlabJob('acctsync-plan', {
        CI_API_V4_URL: api.url,
        CI_PROJECT_ID: '42',
        ACCTSYNC_MR: '9',
        GITLAB_TOKEN: 'glpat-test',
      });
      expect(run.failedLine).toBe('npx --no-install acctsync validate account/');
      expect(run.stderr).toContain('account/network.yaml:6:5: error: unknown field descripton');
      expect(api.notes).toEqual([]);
    } finally {
      api.server.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Every workflow: each acctsync step against every exit status, and how the files are written

const environments = readWorkflow('examples/ci/.github/workflows/acctsync-environments.yml');
const environmentsPr = readWorkflow('examples/ci/.github/workflows/acctsync-environments-pr.yml');
const workflows: ReadonlyArray<readonly [string, Workflow]> = [
  ['acctsync.yml', github],
  ['acctsync-pr.yml', githubPr],
  ['acctsync-environments.yml', environments],
  ['acctsync-environments-pr.yml', environmentsPr],
];

/**
 * The GitHub jobs whose plan step passes on 0 and 2 and posts a comment, by workflow, with the pull
 * request workflow that uploads what they plan.
 */
const planJobs: ReadonlyArray<readonly [string, string, Workflow, Workflow]> = [
  ['acctsync.yml', 'plan', github, githubPr],
  ['acctsync-environments.yml', 'plan-staging', environments, environmentsPr],
  ['acctsync-environments.yml', 'plan-production', environments, environmentsPr],
];

describe('each acctsync step against every exit status of acctsync', { timeout: 180_000 }, () => {
  const statuses = [0, 1, 2, 70, 137];

  it.each(planJobs)(
    '%s %s: passes on 0 and 2, fails on 1, 70 and 137; comments only a plan',
    async (_, job, wf, pr) => {
      for (const status of statuses) {
        stubRepository(dir, status);
        expect((await runJob(pr, 'validate', dir, {})).failedStep).toBeUndefined();
        const comments: Comment[] = [];
        const run = await runJob(wf, job, dir, {}, comments);
        expect({ status, failed: run.failedStep !== undefined }).toEqual({
          status,
          failed: ![0, 2].includes(status),
        });
        if (run.failedStep !== undefined) expect(run.failedStep).toMatch(/^Plan/);
        // 1 with a plan is a plan sync would refuse: the reviewer must see why.
        expect({ status, comments: comments.length }).toEqual({ status, comments: status <= 2 ? 1 : 0 });
      }
    },
  );

  it.each([
    ['acctsync.yml', 'sync', github],
    ['acctsync-environments.yml', 'sync-staging', environments],
    ['acctsync-environments.yml', 'sync-production', environments],
  ] as const)('%s %s: the sync passes on 0 only', async (_, job, wf) => {
    for (const status of statuses) {
      stubRepository(dir, status);
      const run = await runJob(wf, job, dir, {});
      expect({ status, failed: run.failedStep !== undefined }).toEqual({ status, failed: status !== 0 });
    }
  });

  it.each([
    ['acctsync.yml', 'drift', github],
    ['acctsync-environments.yml', 'drift-staging', environments],
    ['acctsync-environments.yml', 'drift-production', environments],
  ] as const)('%s %s: the scheduled drift plan passes on 0 only (2 is drift)', async (_, job, wf) => {
    for (const status of statuses) {
      stubRepository(dir, status);
      const run = await runJob(wf, job, dir, {});
      expect({ status, failed: run.failedStep !== undefined }).toEqual({ status, failed: status !== 0 });
    }
  });

  it('.gitlab-ci.yml: the plan job passes on 0 and 2, fails on 1, 70 and 137; notes only a plan', async () => {
    for (const status of statuses) {
      const api = await notesApi();
      try {
        stubRepository(dir, status);
        writeAccount(['office']);
        await pushMergeRequest();
        const run = await runGitlabJob('acctsync-plan', {
          CI_API_V4_URL: api.url,
          CI_PROJECT_ID: '42',
          ACCTSYNC_MR: '9',
          GITLAB_TOKEN: 'glpat-test',
        });
        expect({ status, failed: run.failedLine !== undefined }).toEqual({
          status,
          failed: ![0, 2].includes(status),
        });
        expect({ status, notes: api.notes.length }).toEqual({ status, notes: status <= 2 ? 1 : 0 });
      } finally {
        api.server.close();
      }
    }
  });

  it('.gitlab-ci.yml: the sync and the drift plan pass on 0 only', async () => {
    for (const status of statuses) {
      stubRepository(dir, status);
      for (const job of ['acctsync-sync', 'acctsync-drift']) {
        const run = await runGitlabJob(job, {});
        expect({ status, job, failed: run.failedLine !== undefined }).toEqual({
          status,
          job,
          failed: status !== 0,
        });
      }
    }
  });
});

describe('the workflow files', () => {
  const files = [
    'examples/ci/.github/workflows/acctsync.yml',
    'examples/ci/.github/workflows/acctsync-pr.yml',
    'examples/ci/.github/workflows/acctsync-environments.yml',
    'examples/ci/.github/workflows/acctsync-environments-pr.yml',
    'examples/ci/.gitlab-ci.yml',
  ].map((f) => [f, readFileSync(join(repoRoot, f), 'utf8')] as const);

  it.each(files)(
    '%s runs acctsync from the local install only, and installs with no install script',
    (_, text) => {
      expect(text).toMatch(/npx --no-install acctsync /);
      expect(text).not.toMatch(/\bnpx\s+(?!--no-install\b)/);
      expect(text).toMatch(/npm ci --ignore-scripts/);
      expect(text).not.toMatch(/npm ci(?! --ignore-scripts)/);
    },
  );

  it.each(workflows)(
    '%s: actions pinned by commit with the release named, least privilege, time limits',
    (_, wf) => {
      expect(wf.permissions).toEqual({});
      for (const [name, job] of Object.entries(wf.jobs)) {
        expect({ name, timeout: typeof job['timeout-minutes'] }).toEqual({ name, timeout: 'number' });
        expect({ name, permissions: typeof job.permissions }).toEqual({ name, permissions: 'object' });
        for (const step of job.steps) {
          if (step.uses === undefined) continue;
          expect(step.uses).toMatch(/^actions\/[\w-]+@[0-9a-f]{40}$/);
          if (step.uses.startsWith('actions/checkout@'))
            expect(step.with).toEqual({ 'persist-credentials': false });
        }
        // Only what posts the comment may write, and only to pull requests.
        const writes = Object.entries(job.permissions ?? {}).filter(([, v]) => v === 'write');
        const comments = job.steps.some((step) => step.uses?.startsWith('actions/github-script@'));
        expect({ name, writes: writes.map(([k]) => k) }).toEqual({
          name,
          writes: comments ? ['pull-requests'] : [],
        });
      }
    },
  );

  it.each(files.slice(0, 4))('%s: every pinned action names its release in a comment', (_, text) => {
    const uses = [...text.matchAll(/uses: (\S+)(.*)$/gm)];
    expect(uses.length).toBeGreaterThan(0);
    for (const [, , comment] of uses) expect(comment).toMatch(/^ # v\d+\.\d+\.\d+$/);
  });

  it('the environments workflow plans each environment in a job that names it', () => {
    expect(environments.jobs['plan-staging']!.environment).toBe('staging');
    expect(environments.jobs['plan-production']!.environment).toBe('production');
    expect(JSON.stringify(environments.jobs['plan-staging'])).not.toContain('PRODUCTION_');
  });

  it('forks and Dependabot get a skipped plan with a notice, not a failed one', () => {
    for (const [wf, pr] of [
      [github, githubPr],
      [environments, environmentsPr],
    ] as const) {
      expect(pr.jobs['plan-skipped']!.if).toContain('dependabot[bot]');
      expect(pr.jobs['plan-skipped']!.steps[0]!.run).toContain('::notice');
      for (const [name, job] of Object.entries(wf.jobs).filter(([n]) => n.startsWith('plan'))) {
        expect({ name, if: job.if }).toEqual({
          name,
          if: expect.stringContaining('dependabot[bot]') as unknown,
        });
        expect(job.if).toContain('github.event.workflow_run.head_repository.full_name == github.repository');
      }
    }
  });

  it('.gitlab-ci.yml: a pinned image, interruptible plans, a sync that is never interrupted', () => {
    const text = files[4]![1];
    expect(text).toMatch(/^ {2}image: node:\d+\.\d+\.\d+-slim$/m);
    const jobs = parse(text) as Record<string, { interruptible?: boolean; timeout?: string }>;
    expect(jobs['acctsync-plan']!.interruptible).toBe(true);
    expect(jobs['acctsync-drift']!.interruptible).toBe(true);
    expect(jobs['acctsync-sync']!.interruptible).toBe(false);
    for (const job of ['acctsync-validate', 'acctsync-plan', 'acctsync-sync', 'acctsync-drift'])
      expect(jobs[job]!.timeout).toBeDefined();
  });
});
