/**
 * No Docker engine runs here, so the Dockerfile is checked by reading it: its instructions are
 * parsed (continuations joined, comments dropped) and the properties docs/watch.md promises are
 * asserted one by one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { parseCommandArgs } from '../../src/cli/args.js';
import { command as watch } from '../../src/cli/commands/watch.js';
import { parseListen } from '../../src/watch/health.js';

interface Instruction {
  readonly keyword: string;
  readonly args: string;
  readonly line: number;
}

interface Stage {
  readonly from: string;
  readonly name: string | undefined;
  readonly instructions: Instruction[];
}

const root = new URL('../../', import.meta.url);
const dockerfile = readFileSync(new URL('Dockerfile', root), 'utf8');
const dockerignore = readFileSync(new URL('.dockerignore', root), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  bin: Record<string, string>;
};

function parse(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = '';
  let start = 0;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (pending === '') start = index + 1;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const full = pending + line;
    pending = '';
    const match = /^(\S+)\s+([\s\S]*)$/.exec(full);
    if (!match) throw new Error(`line ${start}: not an instruction: ${full}`);
    out.push({ keyword: (match[1] ?? '').toUpperCase(), args: (match[2] ?? '').trim(), line: start });
  }
  return out;
}

const instructions = parse(dockerfile);
const globalArgs = new Map<string, string>();
const stages: Stage[] = [];
for (const ins of instructions) {
  if (ins.keyword === 'FROM') {
    const [image = '', as, name] = ins.args.split(/\s+/);
    const from = image.replace(/\$\{(\w+)\}/g, (_m, v: string) => globalArgs.get(v) ?? `\${${v}}`);
    stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
  } else if (stages.length === 0) {
    if (ins.keyword !== 'ARG') throw new Error(`line ${ins.line}: only ARG may precede the first FROM`);
    const [key = '', value = ''] = ins.args.split('=');
    globalArgs.set(key, value);
  } else {
    stages.at(-1)?.instructions.push(ins);
  }
}
const runtime = stages.at(-1) as Stage;
const build = stages[0] as Stage;
const all = (stage: Stage, keyword: string): Instruction[] =>
  stage.instructions.filter((i) => i.keyword === keyword);
const last = (stage: Stage, keyword: string): Instruction | undefined => all(stage, keyword).at(-1);
const execForm = (ins: Instruction | undefined): unknown => JSON.parse(ins?.args ?? 'null');

describe('Dockerfile', () => {
  it('has a build stage and a runtime stage on the same slim Node LTS image, pinned to a version', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    expect(new Set(stages.map((s) => s.from)).size).toBe(1);
    // x.y.z: a moving tag (`node:26-slim`) would ship a Node the suite never ran on (.ci/run tests this one).
    for (const stage of stages) expect(stage.from).toMatch(/^node:\d+\.\d+\.\d+-slim$/);
    const major = Number(/^node:(\d+)/.exec(runtime.from)?.[1]);
    // LTS lines are the even majors; 26 is the active LTS line when this was written (late 2026).
    expect(major % 2).toBe(0);
    expect(major).toBeGreaterThanOrEqual(26);
  });

  it("is the Node line the README lists as the image's, pinned to the version CI tests", () => {
    const major = /^node:(\d+)\./.exec(runtime.from)?.[1] ?? '';
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    expect(readme).toMatch(new RegExp(`^\\| ${major} +\\| the line the Docker image runs`, 'm'));
    // .ci/run installs and tests this exact version: it must be one the npm registry's node package has.
    expect(globalArgs.get('NODE_VERSION')).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('builds with npm ci and npm run build, and installs only production dependencies at runtime', () => {
    const buildRuns = all(build, 'RUN').map((i) => i.args);
    expect(buildRuns).toContainEqual(expect.stringMatching(/^npm ci\b/));
    expect(buildRuns).toContain('npm run build');
    const runtimeRuns = all(runtime, 'RUN').map((i) => i.args);
    expect(runtimeRuns).toContainEqual(expect.stringMatching(/^npm ci --omit=dev --ignore-scripts\b/));
    expect(all(runtime, 'COPY').map((i) => i.args)).toContain('--from=build /app/dist ./dist');
    // Nothing from the build stage's node_modules (dev dependencies) reaches the runtime image.
    expect(all(runtime, 'COPY').some((i) => i.args.includes('node_modules'))).toBe(false);
  });

  it('puts the package bin on PATH as acctsync', () => {
    const target = `/app/${(pkg.bin.acctsync ?? '').replace(/^\.\//, '')}`;
    expect(all(runtime, 'RUN').map((i) => i.args)).toContainEqual(
      expect.stringContaining(`ln -s ${target} /usr/local/bin/acctsync`),
    );
  });

  it('runs as a non-root user', () => {
    const user = last(runtime, 'USER')?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    // USER comes after every RUN: nothing later runs as root again.
    const userAt = runtime.instructions.findIndex((i) => i.keyword === 'USER');
    expect(runtime.instructions.slice(userAt).some((i) => i.keyword === 'RUN')).toBe(false);
  });

  it('starts the daemon on /config, listening where EXPOSE and HEALTHCHECK look', () => {
    expect(execForm(last(runtime, 'ENTRYPOINT'))).toEqual(['acctsync']);
    expect(execForm(last(runtime, 'CMD'))).toEqual(['watch', '/config', '--listen', '0.0.0.0:9464']);
    expect(last(runtime, 'EXPOSE')?.args).toBe('9464');
    expect(execForm(last(runtime, 'VOLUME'))).toEqual(['/config']);
    const health = last(runtime, 'HEALTHCHECK')?.args ?? '';
    const command = /\bCMD\s+(\[.*\])$/.exec(health)?.[1];
    const argv = JSON.parse(command ?? 'null') as string[];
    expect(argv[0]).toBe('node');
    expect(argv.join(' ')).toContain('http://127.0.0.1:9464/healthz');
    expect(health).toMatch(/--timeout=\d+s/);
  });

  it('runs `watch` flags the CLI accepts, and its HEALTHCHECK asks the port they listen on for /healthz', () => {
    const [command, ...args] = execForm(last(runtime, 'CMD')) as string[];
    expect(command).toBe('watch');
    const { values } = parseCommandArgs('watch', args, watch.flags);
    const { port } = parseListen(values.listen);
    expect(last(runtime, 'EXPOSE')?.args).toBe(String(port));
    const health = last(runtime, 'HEALTHCHECK')?.args ?? '';
    expect(health).toContain(`'http://127.0.0.1:${port}/healthz'`);
  });

  it('bakes in no secrets', () => {
    for (const ins of instructions.filter((i) => i.keyword === 'ENV' || i.keyword === 'ARG')) {
      expect(ins.args, `line ${ins.line}`).not.toMatch(/KEY|TOKEN|SECRET|PASSWORD|SVC_API/i);
    }
    for (const ins of instructions.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD')) {
      expect(ins.args, `line ${ins.line}`).not.toMatch(/\.env|\.pem|\.key|token|\.acctsync|(^|\s)\.\s/);
    }
    expect(instructions.some((i) => i.keyword === 'ADD')).toBe(false);
    expect(dockerignore).toEqual(
      expect.arrayContaining(['.git', 'node_modules', '.acctsync', '**/.env', '**/*.pem']),
    );
  });
});
