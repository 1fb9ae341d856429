/**
 * The applier runs the plan's requests: what the JSON shows is what is sent, with the ids of
 * objects created in the run filled in, values that would read as placeholders sent as written,
 * and a saved plan whose requests were edited refused.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFor } from '../../src/pipeline/index.js';
import type { Plan } from '../../src/plan-format/index.js';
import type { DesiredState } from '../../src/resources/index.js';
import { applyPlan, loadExamples, planAccount } from '../plan/helpers.js';
import { useAccount } from '../support/use-account.js';
import { cliWith, saveUpdatePlan, type CliRun } from './saved-update.js';

const h = useAccount(planAccount);

type Plain = Record<string, unknown>;

/** The examples with the TLS edge's log action carrying metadata that reads as a `{ref}` placeholder. */
function withPlaceholderLookalike(examples: DesiredState): DesiredState {
  const policy = {
    outbound: [
      {
        name: 'log-everything',
        expressions: [],
        actions: [{ type: 'log', config: { metadata: { ref: 'backends/web' } } }],
      },
    ],
  };
  return {
    ...examples,
    objects: examples.objects.map((o) =>
      o.key === 'tls_edges/db' ? { ...o, fields: { ...o.fields, policy } } : o,
    ),
  };
}

function requestsOf(plan: Plan, id: string) {
  const op = plan.operations.find((o) => o.id === id);
  if (op === undefined) throw new Error(`no operation ${id}`);
  return op.requests;
}

describe('the requests a plan carries', () => {
  it('are what the applier sends: new ids filled in, look-alikes of placeholders sent as written', async () => {
    const desired = withPlaceholderLookalike(await loadExamples());
    const { plan } = await planFor(desired, h.client);
    const [post] = requestsOf(plan, 'create backends/web-split');
    expect(post?.method).toBe('POST');
    expect(post?.body?.backends).toEqual({
      entries: [
        [{ ref: 'backends/web' }, 95],
        [{ ref: 'backends/web-canary' }, 5],
      ],
    });
    const edge = requestsOf(plan, 'create tls_edges/db')[0]?.body?.policy as { outbound: Plain[] };
    expect(JSON.stringify(edge.outbound)).toContain('{"entries":[["ref","backends/web"]]}');

    const ids = await applyPlan(h.client, plan, desired);
    const split = await h.client.get<{ backends: Plain }>(
      `/backends/weighted/${ids.get('backends/web-split')}`,
    );
    expect(split.body.backends).toEqual({
      [ids.get('backends/web') ?? 'web']: 95,
      [ids.get('backends/web-canary') ?? 'web-canary']: 5,
    });
    const db = await h.client.get<{ policy: { outbound: { actions: { config: Plain }[] }[] } }>(
      `/edges/tls/${ids.get('tls_edges/db')}`,
    );
    expect(db.body.policy.outbound[0]?.actions[0]?.config).toEqual({ metadata: { ref: 'backends/web' } });
    expect((await planFor(desired, h.client)).plan.operations).toEqual([]);
  });
});

describe('acctsync apply PLANFILE', () => {
  // The account is the test's own: its variables are read when a command runs.
  const cli = (args: string[]): Promise<CliRun> => cliWith(h.env)(args);

  it('refuses a saved plan whose requests were edited, and runs the one it saved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acctsync-requests-'));
    const saved = join(dir, 'plan.json');
    expect((await cli(['plan', 'examples/account', '--out', saved])).status).toBe(0);
    const plan = JSON.parse(readFileSync(saved, 'utf8')) as Plan;
    const op = plan.operations.find((o) => o.id === 'create ip_policies/office');
    const edited = {
      ...plan,
      operations: plan.operations.map((o) =>
        o === op
          ? {
              ...o,
              requests: o.requests.map((r) => ({ ...r, body: { ...r.body, description: 'not reviewed' } })),
            }
          : o,
      ),
    };
    const tampered = join(dir, 'edited.json');
    writeFileSync(tampered, JSON.stringify(edited));
    const refused = await cli(['apply', tampered]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('refusing to apply a stale plan');
    expect(refused.stderr).toContain('~ now different: create ip_policies/office');
    expect((await h.client.get<{ ip_policies: unknown[] }>('/ip_policies')).body.ip_policies).toEqual([]);

    const applied = await cli(['apply', saved]);
    expect(applied.stderr).not.toContain('error');
    expect(applied.status).toBe(0);
    expect((await cli(['plan', 'examples/account', '--detailed-exitcode'])).status).toBe(0);
  });

  it('runs a saved plan of updates, whose requests a plan made at apply time holds alike', async () => {
    const { config, root, saved } = await saveUpdatePlan(cli);
    const plan = JSON.parse(readFileSync(saved, 'utf8')) as Plan;
    expect(plan.operations.map((op) => [op.id, op.requests.map((r) => r.method)])).toEqual([
      ['update https_edges/web', ['PATCH']],
    ]);
    const applied = await cli(['apply', saved, ...root]);
    expect(applied.stderr).not.toContain('error');
    expect(applied.status).toBe(0);
    expect((await cli(['plan', config, ...root, '--detailed-exitcode'])).status).toBe(0);
  });
});
