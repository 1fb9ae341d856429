import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/plan-format/index.js';
import { planSchema } from '../../src/plan-format/plan-schema.js';
import { reasonCodes } from '../../src/plan-format/types.js';
import { planFor } from '../../src/pipeline/index.js';
import type { DesiredState } from '../../src/resources/index.js';
import { planSchemaFile, validatePlan } from '../support/plan-schema.js';
import { useAccount } from '../support/use-account.js';
import { applyPlan, loadExamples, planAccount } from './helpers.js';

const h = useAccount(planAccount);

function planJson(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['dist/cli/main.js', 'plan', 'examples/account', '--output', 'json'],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, maxBuffer: 1 << 26 },
      (err, stdout) => (err ? reject(new Error(err.message)) : resolve(stdout)),
    );
  });
}

/** The examples with one route left out, one rule's action changed and one description edited. */
function edited(examples: DesiredState): DesiredState {
  return {
    ...examples,
    objects: examples.objects
      .filter((o) => o.key !== 'https_edges/web/routes/path_prefix:/partners')
      .map((o) =>
        o.key === 'ip_policies/office/rules/203.0.113.0/24'
          ? { ...o, fields: { ...o.fields, action: 'deny' } }
          : o.key === 'backends/web'
            ? { ...o, fields: { ...o.fields, description: 'Tunnels labelled app=web (v2)' } }
            : o,
      ),
  };
}

describe('plan JSON schema (schemas/plan.schema.json)', () => {
  it('is what the plan types generate (run `npm run build && npm run gen:schema` after changing them)', () => {
    expect(planSchemaFile).toEqual(planSchema());
  });

  it('accepts every reason code the planner can give, and no other', () => {
    const operation = {
      id: 'create ip_policies/a',
      action: 'create',
      kind: 'ip_policies',
      key: 'ip_policies/a',
      changes: [],
      dependsOn: [],
      requests: [{ method: 'POST', path: '/ip_policies', body: { description: 'a', metadata: '{}' } }],
    };
    const fingerprint = `sha256:${'0'.repeat(64)}`;
    const planWith = (reason_code: string) => ({
      formatVersion: 2,
      createdAt: '2026-01-01T00:00:00.000Z',
      scope: 'test',
      configPaths: [],
      desiredFingerprint: fingerprint,
      liveFingerprint: fingerprint,
      resolvedIds: {},
      operations: [{ ...operation, reason_code }],
      unmanaged: [],
      summary: {
        create: 1,
        update: 0,
        replace: 0,
        delete: 0,
        adopt: 0,
        rename: 0,
        unchanged: 0,
        managed: 0,
        removed: 0,
      },
      notes: [],
      options: { adopt: false, noDelete: false },
    });
    for (const code of reasonCodes) expect(validatePlan(planWith(code)), code).toBe(true);
    expect(validatePlan(planWith('because_i_said_so'))).toBe(false);
  });

  it('validates the JSON `acctsync plan --output json` prints', async () => {
    const out = await planJson(h.env);
    const plan = JSON.parse(out) as { operations: { reason_code: string }[] };
    expect(validatePlan(plan), JSON.stringify(validatePlan.errors)).toBe(true);
    expect(new Set(plan.operations.map((op) => op.reason_code))).toEqual(new Set(['create_because_missing']));
  });

  it('validates update, replace and delete operations, each with its reason_code', async () => {
    const examples = await loadExamples();
    await applyPlan(h.client, (await planFor(examples, h.client)).plan, examples);
    const { plan } = await planFor(edited(examples), h.client);
    const json = JSON.parse(renderJson(plan)) as unknown;
    expect(validatePlan(json), JSON.stringify(validatePlan.errors)).toBe(true);
    expect(plan.operations.map((op) => [op.id.replace(/#.*/, ''), op.reason_code])).toEqual(
      expect.arrayContaining([
        ['update backends/web', 'update_because_changed'],
        ['create ip_policies/office/rules/203.0.113.0/24', 'replace_because_immutable'],
        ['delete ip_policies/office/rules/203.0.113.0/24', 'replace_because_immutable'],
        ['delete https_edges/web/routes/path_prefix:/partners', 'delete_because_removed_from_config'],
      ]),
    );
    // The schema is strict: an operation without its reason_code is not a plan of this format.
    const [first, ...rest] = plan.operations;
    const { reason_code: _dropped, ...withoutCode } = first ?? { reason_code: '' };
    expect(validatePlan({ ...plan, operations: [withoutCode, ...rest] })).toBe(false);
  });
});
