/**
 * `watch --policy`: each reconcile reads the rule files again; a broken error rule refuses the
 * reconcile before any write, a warning lets it apply, a rule file that does not load changes nothing.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAccount } from '../support/use-account.js';
import { reconcileStep } from './reconcile-harness.js';

const rule = (severity: string) => `version: 1
rules:
  - name: policies-are-described
    on: object
    kinds: [ip_policies]
    expression: has(object.description) && object.description != ''
    message: an IP policy says what it holds
    severity: ${severity}
`;

describe('the reconcile step with --policy', () => {
  const account = useAccount();
  let dir: string;
  let run: ReturnType<typeof reconcileStep>;
  const writes = () => account.answered((r) => r.method !== 'GET');

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'acctsync-step-policy-'));
    await mkdir(join(dir, 'config'));
    await mkdir(join(dir, 'rules'));
    await writeFile(
      join(dir, 'config/network.yaml'),
      'version: 1\nscope: watch-policy\nip_policies:\n  office: {}\n',
    );
    run = reconcileStep(
      account.client,
      { paths: [join(dir, 'config')], cwd: dir },
      { policyPaths: ['rules'] },
    );
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses the reconcile on a broken error rule, writing nothing; a warning applies', async () => {
    await writeFile(join(dir, 'rules/rules.yaml'), rule('error'));
    const before = writes();
    const refused = await run();
    expect(refused).toMatchObject({ status: 'refused', planned: 1, applied: [] });
    expect(refused.reason).toBe('1 policy rule is broken: nothing was written');
    expect(refused.details).toEqual([
      'rule policies-are-described on ip_policies/office: an IP policy says what it holds',
    ]);
    expect(writes()).toBe(before);

    await writeFile(join(dir, 'rules/rules.yaml'), rule('warning'));
    expect(await run()).toMatchObject({ status: 'success', planned: 1 });
    expect(writes()).toBeGreaterThan(before);
  });

  it('changes nothing when a rule file does not load', async () => {
    await writeFile(join(dir, 'rules/rules.yaml'), rule('fatal'));
    const before = writes();
    const result = await run();
    expect(result).toMatchObject({ status: 'invalid_config', applied: [] });
    expect(result.reason).toBe('the policy rules are invalid: 1 error; nothing was changed');
    expect(result.details?.[0]).toContain('rules/rules.yaml:8:15: error: severity must be error or warning');
    expect(writes()).toBe(before);
  });
});
