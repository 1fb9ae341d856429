/**
 * The CI workflows of examples/ci (laid out like a config repository's root), run as GitHub Actions and GitLab CI would run their steps: each
 * `run`/`script` through bash in a config repository where `npx acctsync` is this build, with the
 * environment those systems set, against an emulator over HTTP. The comment and note steps run
 * against a stand-in of the forge's API that keeps the comments. A renamed flag fails here.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const main = join(repoRoot, 'dist/cli/main.js');

interface Step {
  readonly name?: string;
  readonly id?: string;
  readonly if?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, string>;
}

let dir: string;
let emulator: RunningEmulator;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'acctsync-ci-'));
  writeFileSync(join(dir, 'package.json'), '{"name":"my-account","version":"1.0.0","private":true}\n');
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  const shim = join(dir, 'node_modules/.bin/acctsync');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${main}" "$@"\n`);
  chmodSync(shim, 0o755);
  emulator = await startEmulator();
});
afterEach(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

function writeAccount(policies: string[], extra = ''): void {
  mkdirSync(join(dir, 'account'), { recursive: true });
  const body = policies.map((p) => `  ${p}:\n    description: ${p} networks\n${extra}`).join('');
  writeFileSync(join(dir, 'account/network.yaml'), `version: 1\nscope: ci\nip_policies:\n${body}`);
}

/**
 * Runs one shell step as a CI runner does (`bash -e`), in the config repository. Asynchronous: the
 * emulator answers from this process.
 */
function shell(
  script: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stderr: string }> {
  const { SVC_API_URL: _u, SVC_API_KEY: _k, GITHUB_ACTIONS: _g, ...base } = process.env;
  const child = spawn('bash', ['-e', '-c', script], {
    cwd: dir,
    env: { ...base, CI: 'true', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

// ---------------------------------------------------------------------------------------------
// GitHub Actions

const github = parse(readFileSync(join(repoRoot, 'examples/ci/.github/workflows/acctsync.yml'), 'utf8')) as {
  jobs: Record<
    string,
    { if?: string; steps: Step[]; concurrency?: { group: string; 'cancel-in-progress': boolean } }
  >;
};

/** `${{ vars.X }}` and `${{ secrets.X }}` as the repository settings would fill them. */
function expand(value: string, settings: Record<string, string>): string {
  return value.replace(/\$\{\{\s*(?:vars|secrets)\.(\w+)\s*\}\}/g, (_, name: string) => settings[name] ?? '');
}

/** The few `if:` forms the workflow uses: `steps.<id>.outputs.<name> == '<v>'` joined by `||`. */
function condition(expression: string, outputs: Record<string, Record<string, string>>): boolean {
  return expression.split('||').some((part) => {
    const m = /^\s*steps\.(\w+)\.outputs\.(\w+)\s*==\s*'([^']*)'\s*$/.exec(part);
    if (!m) throw new Error(`the test does not understand the condition ${part}`);
    return outputs[m[1]!]?.[m[2]!] === m[3];
  });
}

/** The pull request's comments, as the issues API keeps them. */
interface Comment {
  id: number;
  body: string;
}

/** `actions/github-script`: the script as an async function of `github`, `context` and `require`. */
async function githubScript(script: string, comments: Comment[]): Promise<void> {
  const rest = {
    issues: {
      listComments: () => undefined,
      createComment: ({ body }: { body: string }) => {
        comments.push({ id: comments.length + 1, body });
        return Promise.resolve({});
      },
      updateComment: ({ comment_id, body }: { comment_id: number; body: string }) => {
        const found = comments.find((c) => c.id === comment_id);
        if (!found) throw new Error(`no comment ${comment_id}`);
        found.body = body;
        return Promise.resolve({});
      },
    },
  };
  const gh = { rest, paginate: () => Promise.resolve(comments.map((c) => ({ ...c }))) };
  const context = { repo: { owner: 'team', repo: 'my-account' }, issue: { number: 7 } };
  const require = createRequire(join(dir, 'package.json'));
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    // github-script runs the text as the body of an async function; so does this.
    const AsyncFunction = async function () {}.constructor as new (
      ...args: string[]
    ) => (...values: unknown[]) => Promise<void>;
    await new AsyncFunction('github', 'context', 'require', script)(gh, context, require);
  } finally {
    process.chdir(cwd);
  }
}

interface JobRun {
  readonly failedStep?: string;
  readonly stderr: string;
  readonly outputs: Record<string, Record<string, string>>;
  readonly summary: string;
}

/** Runs a job's steps in order as the runner would, stopping at the first failing one. */
async function runJob(name: string, comments: Comment[] = []): Promise<JobRun> {
  const settings = { SVC_API_URL: emulator.url, SVC_API_KEY: emulator.token };
  const outputs: Record<string, Record<string, string>> = {};
  const summaryFile = join(dir, 'step-summary.md');
  writeFileSync(summaryFile, '');
  let stderr = '';
  for (const step of github.jobs[name]!.steps) {
    if (step.if !== undefined && !condition(step.if, outputs)) continue;
    if (step.uses?.startsWith('actions/github-script@')) {
      await githubScript(step.with!.script!, comments);
      continue;
    }
    // Checkout, Node set-up, npm ci and artifact upload are the runner's; the repository is ready.
    if (step.run === undefined || step.run === 'npm ci') continue;
    const outputFile = join(dir, 'github-output');
    writeFileSync(outputFile, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, settings)]));
    const run = await shell(step.run, {
      ...env,
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
    });
    stderr += run.stderr;
    if (step.id !== undefined) {
      const lines = readFileSync(outputFile, 'utf8').split('\n').filter(Boolean);
      outputs[step.id] = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
    }
    if (run.status !== 0) return { failedStep: step.name ?? step.run, stderr, outputs, summary: '' };
  }
  return { stderr, outputs, summary: readFileSync(summaryFile, 'utf8') };
}

// Each job runs several CLI processes; on a loaded machine that takes well over the default 20 s.
describe('examples/ci/.github/workflows/acctsync.yml', { timeout: 180_000 }, () => {
  it('runs the plan job on pull requests and the sync job on the default branch, one sync at a time', () => {
    expect(github.jobs.plan!.if).toBe("github.event_name == 'pull_request'");
    expect(github.jobs.sync!.if).toBe("github.event_name == 'push'");
    expect(github.jobs.sync!.concurrency).toEqual({ group: 'acctsync-sync', 'cancel-in-progress': false });
  });

  it('a pull request: one plan comment, updated on each push, the plan in the job summary', async () => {
    writeAccount(['office']);
    const comments: Comment[] = [];
    const first = await runJob('plan', comments);
    expect(first.failedStep).toBeUndefined();
    expect(first.outputs.plan).toEqual({ exitcode: '2' });
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/^<!-- acctsync-plan -->\n/);
    expect(comments[0]!.body).toContain('ip_policies/office');
    expect(first.summary).toContain('ip_policies/office');

    writeAccount(['office', 'lab']);
    const second = await runJob('plan', comments);
    expect(second.failedStep).toBeUndefined();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('ip_policies/lab');
  });

  it('an invalid config fails the validate step with annotations on the lines', async () => {
    writeAccount(['office'], '    descripton: typo\n');
    const comments: Comment[] = [];
    const run = await runJob('plan', comments);
    expect(run.failedStep).toBe('Validate');
    expect(run.stderr).toContain('::error file=account/network.yaml,line=6,col=5::');
    expect(comments).toEqual([]);
  });

  it('an unreachable API fails the plan step instead of posting a plan', async () => {
    writeAccount(['office']);
    await emulator.close();
    const comments: Comment[] = [];
    const run = await runJob('plan', comments);
    expect(run.failedStep).toBe('Plan');
    expect(run.outputs.plan).toEqual({ exitcode: '1' });
    expect(comments).toEqual([]);
    emulator = await startEmulator();
  });

  it('the default branch syncs the account; the next pull request plans no change', async () => {
    writeAccount(['office', 'lab']);
    expect((await runJob('sync')).failedStep).toBeUndefined();
    const comments: Comment[] = [];
    const plan = await runJob('plan', comments);
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
    const run = await shell(line, {
      GITLAB_CI: 'true',
      SVC_API_URL: emulator.url,
      SVC_API_KEY: emulator.token,
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
