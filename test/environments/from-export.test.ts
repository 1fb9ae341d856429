/**
 * docs/environments.md "From one exported account", run as the doc writes it: a hand-made
 * production account exported, split into a base and two environments (production's ids moved to
 * its overlay by `export --env production --move-ids`), taken over in production and created in
 * staging; both plan empty. `export --env` refuses a hand-written overlay, keeps the overlay's
 * observed bootstrap key, and writes an overlay that validates and plans empty.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { commandBlocks, commandsOf } from '../docs/command-blocks.js';
import type { TestAccount } from '../support/account.js';
import { apiEnv } from '../support/account.js';
import { cliShim, runBash, runCli } from '../support/cli.js';
import { useTwoAccounts } from './support/two-accounts.js';

const doc = 'docs/environments.md';
const walk = commandBlocks(doc).filter((b) => b.runBy === 'test/environments/from-export.test.ts');

let dir: string;
let production: TestAccount;
let env: Record<string, string>;
useTwoAccounts('acctsync-from-export-', (accounts) => {
  ({ dir, production, env } = accounts);
  // Step 1 exports production through the single-account variables.
  env = { ...env, ...apiEnv(production) };
});

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `script` run by bash in the directory, with the built CLI as `acctsync` on its PATH. */
async function shell(script: string): Promise<Run> {
  const run = await runBash(script, {
    cwd: dir,
    env: { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: dir, ...env },
    isolated: true,
  });
  return { status: run.code, stdout: run.stdout, stderr: run.stderr };
}

async function acctsync(args: readonly string[], extra: Record<string, string> = {}): Promise<Run> {
  const run = await runCli(args, { cwd: dir, env: { HOME: dir, ...env, ...extra }, isolated: true });
  return { status: run.code, stdout: run.stdout, stderr: run.stderr };
}

/** The doc's block, run by bash as a reader pastes it, `acctsync` being the built CLI. */
async function runBlock(index: number): Promise<Run> {
  const block = walk[index];
  if (block === undefined) throw new Error(`${doc} has no block ${index} run by this test`);
  const run = await shell(commandsOf(block));
  const said = `${doc}:${block.line}\n${run.stdout}\n${run.stderr}`;
  expect(run.status, said).toBe(0);
  expect(run.stderr, said).not.toMatch(/\berror\b/i);
  return run;
}

/** The doc's yaml block that opens with `# NAME`. */
function yamlBlock(name: string): string {
  const text = readFileSync(doc, 'utf8');
  const m = new RegExp(
    `^( *)\`\`\`yaml\\n\\1# ${name.replace(/[./]/g, '\\$&')}\\n([\\s\\S]*?)\\n\\1\`\`\`$`,
    'm',
  ).exec(text);
  if (m === null) throw new Error(`${doc} has no yaml block for ${name}`);
  const indent = m[1] ?? '';
  return `${(m[2] ?? '')
    .split('\n')
    .map((l) => l.slice(indent.length))
    .join('\n')}\n`;
}

const read = (path: string): string => readFileSync(join(dir, path), 'utf8');

it('an exported production account becomes a base and two environments that plan empty', async () => {
  expect(walk.length).toBe(4);
  // A hand-made production account: nothing manages it yet.
  const office = await production.client.post<{ id: string }>('/ip_policies', {
    description: 'Office networks',
  });
  await production.client.post('/ip_policy_rules', {
    ip_policy_id: office.body.id,
    cidr: '203.0.113.0/24',
    action: 'allow',
    description: 'HQ',
  });
  const partners = await production.client.post<{ id: string }>('/ip_policies', { description: 'Partners' });
  rmSync(join(dir, 'config'), { recursive: true });
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin/acctsync'), cliShim, { mode: 0o755 });

  // 1. Export production.
  const exported = await runBlock(0);
  expect(exported.stderr).toContain('acctsync: exported 3 objects to exported/\n');
  const keys = parse(read('exported/api_keys.yaml')) as {
    api_keys: Record<string, { id: string; description: string }>;
  };
  const [bootstrapName, bootstrap] = Object.entries(keys.api_keys)[0]!;

  // 2. Declare the environments (the doc's file), move the entries into the base.
  await runBlock(1);
  writeFileSync(join(dir, 'config/acctsync.yaml'), yamlBlock('config/acctsync.yaml'));
  expect(read('config/base/ip_policies.yaml')).toContain(office.body.id);
  expect(existsSync(join(dir, 'config/base/api_keys.yaml'))).toBe(false);

  // Production's ids in the base: staging's plan stops, saying what they may be and what moves them.
  const stale = await acctsync(['plan', 'config', '--env', 'staging']);
  expect(stale.status).toBe(1);
  expect(stale.stderr).toContain("in staging's account: it may be production's id");
  expect(stale.stderr).toContain('--move-ids');

  // export --env staging stops at them too, naming each entry, and writes nothing.
  const foreign = await acctsync([
    'export',
    'config',
    '--env',
    'staging',
    '--out',
    'staging.yaml',
    '--move-ids',
  ]);
  expect(foreign.status).toBe(1);
  expect(foreign.stderr).toContain(
    `ip_policies/office-networks: no object with id ${office.body.id} in staging's account (or another scope manages it): it may be production's id`,
  );
  expect(existsSync(join(dir, 'staging.yaml'))).toBe(false);
  expect(read('config/base/ip_policies.yaml')).toContain(office.body.id);

  // 3. Beside a hand-written overlay, the export refuses, naming it, and writes nothing.
  const handWritten = 'version: 1\n# production only: keep\n';
  writeFileSync(join(dir, 'config/production/overlay.yaml'), handWritten);
  const baseBefore = read('config/base/ip_policies.yaml');
  const refused = await acctsync(commandsOf(walk[2]!).trim().split(/\s+/).slice(1));
  expect(refused.status).toBe(1);
  expect(refused.stderr).toContain(
    'export: refusing to overwrite config/production/overlay.yaml: not written by acctsync export',
  );
  expect(read('config/production/overlay.yaml')).toBe(handWritten);
  expect(read('config/base/ip_policies.yaml')).toBe(baseBefore);
  rmSync(join(dir, 'config/production/overlay.yaml'));

  // Without it, the ids move: the overlay pins production's objects, the base has no id left.
  const moved = await runBlock(2);
  expect(moved.stderr).toContain('not taken over yet keep their id: in the overlay');
  const overlay = parse(read('config/production/overlay.yaml')) as {
    patch: { ip_policies: Record<string, { id: string }> };
  };
  expect(
    Object.values(overlay.patch.ip_policies)
      .map((p) => p.id)
      .sort(),
  ).toEqual([office.body.id, partners.body.id].sort());
  expect(read('config/base/ip_policies.yaml')).not.toMatch(/\bid:/);
  expect(read('config/base/ip_policies.yaml')).toContain('203.0.113.0/24');

  // 4. The bootstrap key, observed, added to production's overlay by hand.
  appendFileSync(
    join(dir, 'config/production/overlay.yaml'),
    `api_keys:\n  ${bootstrapName}: { id: ${bootstrap.id}, description: ${bootstrap.description}, observe: true }\n`,
  );

  // 5. Production taken over, staging created; both empty.
  const taken = await runBlock(3);
  expect(taken.stdout).not.toMatch(/drifted|\+ api_keys/);

  // A hand change in production comes back as its overlay: the observed key kept, the ids gone
  // (the marker pairs the objects now); it validates and both environments plan empty.
  await production.client.patch(`/ip_policies/${partners.body.id}`, { description: 'Partners (prod)' });
  const rewritten = await acctsync(['export', 'config', '--env', 'production']);
  expect(rewritten.status, rewritten.stderr).toBe(0);
  const written = read('config/production/overlay.yaml');
  expect(written).toContain('Partners (prod)');
  expect(written).toContain(bootstrap.id);
  expect(written).not.toContain(office.body.id);
  expect((parse(written) as { api_keys: Record<string, unknown> }).api_keys[bootstrapName]).toEqual({
    id: bootstrap.id,
    description: bootstrap.description,
    observe: true,
  });
  for (const args of [
    ['validate', 'config'],
    ['plan', 'config', '--env', 'production', '--detailed-exitcode'],
    ['plan', 'config', '--env', 'staging', '--detailed-exitcode'],
  ]) {
    const run = await acctsync(args);
    expect(run.status, `${args.join(' ')}\n${run.stdout}${run.stderr}`).toBe(0);
  }

  // The overlay edited by hand without its opening comment is the user's: --force replaces it.
  const mine = written.replace(/^#.*\n/gm, '');
  writeFileSync(join(dir, 'config/production/overlay.yaml'), mine);
  const again = await acctsync(['export', 'config', '--env', 'production']);
  expect(again.status).toBe(1);
  expect(again.stderr).toContain('refusing to overwrite config/production/overlay.yaml');
  expect(read('config/production/overlay.yaml')).toBe(mine);
  const forced = await acctsync(['export', 'config', '--env', 'production', '--force']);
  expect(forced.status, forced.stderr).toBe(0);
  expect(read('config/production/overlay.yaml')).toBe(written);
}, 300_000);
