/**
 * Stand-ins for what a CI runner does around acctsync, for the tests that run our example
 * workflows: a config repository where `npx acctsync` is this build, shell steps run as the runner
 * runs them, GitHub's `vars`/`secrets` expressions and step outputs, and the comment step's
 * `actions/github-script` against a pull request whose comments are kept in memory.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const main = join(repoRoot, 'dist/cli/main.js');

/** Makes `dir` a config repository whose local install of acctsync is this build, with examples/policies as policies/. */
export function configRepository(dir: string): void {
  installAcctsync(dir, `exec "${process.execPath}" "${main}" "$@"`);
}

/**
 * Makes `dir` a config repository whose `acctsync` is a stand-in that ends with `status` (137:
 * killed by SIGKILL, as a runner's out-of-memory killer does), printing a plan first when asked
 * for markdown, so each step's handling of every exit status can be run; `validate` passes.
 */
export function stubRepository(dir: string, status: number): void {
  const end = status === 137 ? 'kill -9 $$' : `exit ${status}`;
  const plan = `case "$*" in *markdown*) echo '### acctsync plan (stub)' ;; esac`;
  installAcctsync(dir, `if [ "$1" = validate ]; then exit 0; fi\n${plan}\n${end}`);
}

function installAcctsync(dir: string, body: string): void {
  writeFileSync(join(dir, 'package.json'), '{"name":"my-account","version":"1.0.0","private":true}\n');
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  const shim = join(dir, 'node_modules/.bin/acctsync');
  writeFileSync(shim, `#!/bin/sh\n${body}\n`);
  chmodSync(shim, 0o755);
  cpSync(join(repoRoot, 'examples/policies'), join(dir, 'policies'), { recursive: true });
}

export interface Step {
  readonly name?: string;
  readonly id?: string;
  readonly if?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, string>;
}

export interface Job {
  readonly if?: string;
  readonly 'runs-on'?: string;
  readonly needs?: string | string[];
  readonly environment?: string;
  readonly 'timeout-minutes'?: number;
  readonly permissions?: Record<string, string>;
  readonly steps: Step[];
  readonly concurrency?: { group: string; 'cancel-in-progress': boolean };
}

export interface Workflow {
  readonly name: string;
  readonly on: Record<string, unknown>;
  readonly permissions?: Record<string, string>;
  readonly jobs: Record<string, Job>;
}

/** A GitHub Actions workflow of the repository, parsed. */
export function readWorkflow(path: string): Workflow {
  return parse(readFileSync(join(repoRoot, path), 'utf8')) as Workflow;
}

/**
 * Runs one shell step as a CI runner does (`bash -e`), in the config repository. Asynchronous: the
 * emulator answers from this process.
 */
export function shell(
  dir: string,
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

/** `${{ vars.X }}` and `${{ secrets.X }}` as the repository settings would fill them. */
function expand(value: string, settings: Record<string, string>): string {
  return value.replace(/\$\{\{\s*(?:vars|secrets)\.(\w+)\s*\}\}/g, (_, name: string) => settings[name] ?? '');
}

/** Runs after an earlier step failed (`!cancelled()`, `always()`), as the runner does. */
function runsAfterFailure(expression: string | undefined): boolean {
  return expression !== undefined && /^(!cancelled\(\)|always\(\)) && /.test(expression);
}

/**
 * The few `if:` forms the workflows' steps use: `steps.<id>.outputs.<name> == '<v>'` joined by
 * `||`, optionally after `!cancelled() && `.
 */
function condition(expression: string, outputs: Record<string, Record<string, string>>): boolean {
  const tested = expression.replace(/^(!cancelled\(\)|always\(\)) && /, '');
  return tested.split('||').some((part) => {
    const m = /^\s*steps\.(\w+)\.outputs\.(\w+)\s*==\s*'([^']*)'\s*$/.exec(part);
    if (!m) throw new Error(`the test does not understand the condition ${part}`);
    return outputs[m[1]!]?.[m[2]!] === m[3];
  });
}

/** The pull request's comments, as the issues API keeps them. */
export interface Comment {
  id: number;
  body: string;
}

/** `actions/github-script`: the script as an async function of `github`, `context` and `require`. */
async function githubScript(dir: string, script: string, comments: Comment[]): Promise<void> {
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
  // The pull request is 7, as the pull_request event names it and workflow_run's payload lists it.
  const context = {
    repo: { owner: 'team', repo: 'my-account' },
    issue: { number: 7 },
    payload: { workflow_run: { pull_requests: [{ number: 7 }] } },
  };
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

/** Where the artifacts of earlier jobs are kept, in the config repository's directory. */
const artifactStore = '.artifacts';

/** `actions/upload-artifact` of one directory: its files, relative to it, under the artifact's name. */
function uploadArtifact(dir: string, name: string, path: string): void {
  const target = join(dir, artifactStore, name);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  if (existsSync(join(dir, path))) cpSync(join(dir, path), target, { recursive: true });
}

/** `actions/download-artifact` of one artifact into `path` (the run that uploaded it already ran). */
function downloadArtifact(dir: string, name: string, path: string): void {
  const source = join(dir, artifactStore, name);
  if (!existsSync(source)) throw new Error(`no artifact ${name}: run the job that uploads it first`);
  mkdirSync(join(dir, path), { recursive: true });
  cpSync(source, join(dir, path), { recursive: true });
}

export interface JobRun {
  readonly failedStep?: string;
  readonly stderr: string;
  readonly outputs: Record<string, Record<string, string>>;
  readonly summary: string;
}

/**
 * Runs a job's steps in `dir` in order as the runner would, stopping at the first failing one.
 * `settings` are the repository's variables and secrets.
 */
export async function runJob(
  workflow: Workflow,
  name: string,
  dir: string,
  settings: Record<string, string>,
  comments: Comment[] = [],
): Promise<JobRun> {
  const outputs: Record<string, Record<string, string>> = {};
  const summaryFile = join(dir, 'step-summary.md');
  writeFileSync(summaryFile, '');
  let stderr = '';
  let failedStep: string | undefined;
  for (const step of workflow.jobs[name]!.steps) {
    if (failedStep !== undefined && !runsAfterFailure(step.if)) continue;
    if (step.if !== undefined && !condition(step.if, outputs)) continue;
    if (step.uses?.startsWith('actions/github-script@')) {
      await githubScript(dir, step.with!.script!, comments);
      continue;
    }
    if (step.uses?.startsWith('actions/upload-artifact@')) {
      uploadArtifact(dir, step.with!.name!, step.with!.path!);
      continue;
    }
    if (step.uses?.startsWith('actions/download-artifact@')) {
      downloadArtifact(dir, step.with!.name!, step.with!.path!);
      continue;
    }
    // Checkout, Node set-up and npm ci are the runner's; the repository is ready.
    if (step.run === undefined || /^npm ci( |$)/.test(step.run)) continue;
    const outputFile = join(dir, 'github-output');
    writeFileSync(outputFile, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, settings)]));
    const run = await shell(dir, step.run, {
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
    if (run.status !== 0) failedStep ??= step.name ?? step.run;
  }
  const summary = readFileSync(summaryFile, 'utf8');
  return failedStep === undefined ? { stderr, outputs, summary } : { failedStep, stderr, outputs, summary };
}
