/**
 * The CI workflows of examples/ci (laid out like a config repository's root), run as GitHub Actions and GitLab CI would run their steps: each
 * `run`/`script` through bash in a config repository where `npx acctsync` is this build, with the
 * environment those systems set, against an emulator over HTTP. The comment and note steps run
 * against a stand-in of the forge's API that keeps the comments. A renamed flag fails here.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { useAccount } from '../support/use-account.js';
import {
  configRepository,
  readWorkflow,
  repoRoot,
  runJob,
  shell,
  type Comment,
  type JobRun,
} from './support/github-actions.js';

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

/** Runs a job of the workflow in the config repository against the test's emulator. */
function runGithubJob(name: string, comments: Comment[] = []): Promise<JobRun> {
  return runJob(github, name, dir, account.env, comments);
}

describe('examples/ci/.github/workflows/acctsync.yml', { timeout: 180_000 }, () => {
  it('runs the plan job on pull requests and the sync job on the default branch, one sync at a time', () => {
    expect(github.jobs.plan!.if).toBe("github.event_name == 'pull_request'");
    expect(github.jobs.sync!.if).toBe("github.event_name == 'push'");
    expect(github.jobs.sync!.concurrency).toEqual({ group: 'acctsync-sync', 'cancel-in-progress': false });
  });

  it('a pull request: one plan comment, updated on each push, the plan in the job summary', async () => {
    writeAccount(['office']);
    const comments: Comment[] = [];
    const first = await runGithubJob('plan', comments);
    expect(first.failedStep).toBeUndefined();
    expect(first.outputs.plan).toEqual({ exitcode: '2' });
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/^<!-- acctsync-plan -->\n/);
    expect(comments[0]!.body).toContain('ip_policies/office');
    expect(first.summary).toContain('ip_policies/office');

    writeAccount(['office', 'lab']);
    const second = await runGithubJob('plan', comments);
    expect(second.failedStep).toBeUndefined();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('ip_policies/lab');
  });

  it('an invalid config fails the validate step with annotations on the lines', async () => {
    writeAccount(['office'], '    descripton: typo\n');
    const comments: Comment[] = [];
    const run = await runGithubJob('plan', comments);
    expect(run.failedStep).toBe('Validate');
    expect(run.stderr).toContain('::error file=account/network.yaml,line=6,col=5::');
    expect(comments).toEqual([]);
  });

  it('an unreachable API fails the plan step instead of posting a plan', async () => {
    writeAccount(['office']);
    await account.close();
    const comments: Comment[] = [];
    const run = await runGithubJob('plan', comments);
    expect(run.failedStep).toBe('Plan');
    expect(run.outputs.plan).toEqual({ exitcode: '1' });
    expect(comments).toEqual([]);
  });

  it('the default branch syncs the account; the next pull request plans no change', async () => {
    writeAccount(['office', 'lab']);
    expect((await runGithubJob('sync')).failedStep).toBeUndefined();
    const comments: Comment[] = [];
    const plan = await runGithubJob('plan', comments);
    expect(plan.outputs.plan).toEqual({ exitcode: '0' });
    expect(comments[0]!.body).toContain('No changes');
  });
});

// ---------------------------------------------------------------------------------------------
// GitLab CI

const gitlab = parse(readFileSync(join(repoRoot, 'examples/ci/.gitlab-ci.yml'), 'utf8')) as Record<
  string,
  { script?: string[]; rules?: { if: string }[]; resource_group?: string }
>;

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
  it('plans on merge requests, syncs on the default branch in one resource group', () => {
    expect(gitlab['acctsync-plan']!.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }]);
    expect(gitlab['acctsync-sync']!.rules).toEqual([{ if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH' }]);
    expect(gitlab['acctsync-sync']!.resource_group).toBe('acctsync-account');
  });

  it('a merge request: one plan note, updated on each push; then the sync converges', async () => {
    const api = await notesApi();
    try {
      const env = {
        CI_API_V4_URL: api.url,
        CI_PROJECT_ID: '42',
        CI_MERGE_REQUEST_IID: '9',
        GITLAB_TOKEN: 'glpat-test',
      };
      writeAccount(['office']);
      expect((await runGitlabJob('acctsync-plan', env)).failedLine).toBeUndefined();
      expect(api.notes).toHaveLength(1);
      expect(api.notes[0]!.body).toContain('ip_policies/office');
      writeAccount(['office', 'lab']);
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

  it('an invalid config fails the job at validate and posts nothing', async () => {
    const api = await notesApi();
    try {
      writeAccount(['office'], '    descripton: typo\n');
      const run = await runGitlabJob('acctsync-plan', {
        CI_API_V4_URL: api.url,
        CI_PROJECT_ID: '42',
        CI_MERGE_REQUEST_IID: '9',
        GITLAB_TOKEN: 'glpat-test',
      });
      expect(run.failedLine).toBe('npx acctsync validate account/');
      expect(run.stderr).toContain('account/network.yaml:6:5: error: unknown field descripton');
      expect(api.notes).toEqual([]);
    } finally {
      api.server.close();
    }
  });
});
