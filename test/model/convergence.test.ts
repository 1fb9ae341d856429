/**
 * The model-based suite (see model.ts): seeded random sequences of reviewed changes over every kind,
 * each step synced once (every other one as `plan --out` + `apply plan.json`) and then planned, at
 * parallelism 1 and 16. `npm test` runs two seeds of a few dozen steps, renames among them (every
 * renamed object keeps its id), with hand edits drawn between steps (hand-edits.ts: never a
 * duplicate, an empty plan after the next sync or adoption); `npm run test:soak` runs thousands
 * (test/soak/model.test.ts). A failure prints
 * its seed: `RELIABILITY_SEED=<n>` replays it.
 */
import { describe, expect, it } from 'vitest';
import { suiteSeed } from '../reliability/support/prng.js';
import { runModel, runSteps } from './run.js';

const seed = suiteSeed('model');

describe('every reviewed change converges in one sync (model)', () => {
  // The service as the vendor's examples answer, and as an echo of what it is sent: acctsync must
  // converge against both (docs/emulator.md, "How it answers").
  it.each([
    [1, 0, 'vendor-like'],
    [16, 1, 'vendor-like'],
    [16, 2, 'echo'],
  ])(
    '40 steps at --parallelism %i (seed + %i), %s answers: no failure, no 409, nothing left to plan',
    async (parallelism, offset, answers) => {
      const run = await runModel(seed + offset, 40, parallelism, answers === 'echo');
      expect(run.failure?.report, `seed ${seed + offset}`).toBeUndefined();
      // The run changed the account in every way, not only by adding objects.
      console.log(`[model] seed ${seed + offset}: ${JSON.stringify(run)}`);
      for (const action of ['create', 'update', 'delete', 'rename'])
        expect(run.operations[action], action).toBeGreaterThan(0);
      // Hand edits were drawn between steps (one in two steps), each undone or adopted back.
      const byHand = Object.entries(run.changes).filter(([what]) => what.startsWith('by hand'));
      expect(byHand.reduce((n, [, count]) => n + count, 0)).toBeGreaterThan(0);
    },
    // Hand edits add a sync and a plan to every other step; a loaded 2-core machine needs the room.
    240_000,
  );
});

/** An IP policy with rules, referenced by a restriction and a TLS edge, under the key `name`. */
const referencedPolicy = (name: string) => `version: 1
scope: model
ip_policies:
  ${name}:
    rules:
      - { cidr: 10.0.0.0/8, action: allow }
      - { cidr: 192.168.0.0/16, action: deny }
ip_restrictions:
  r0: { type: dashboard, ip_policies: [${name}] }
tls_edges:
  e0:
    hostports: ['e0.example.com:443']
    ip_restriction: { ip_policies: [${name}] }
`;

describe('reference switches wait for the whole creation (model step)', () => {
  it('a key renamed without moved: switches its referrers only after the new policy and its rules exist', async () => {
    // Each step's plan is checked: no operation referencing an object the plan creates may start
    // before the creates of that object's nested items.
    const failure = await runSteps([referencedPolicy('p0'), referencedPolicy('p1')], 16);
    expect(failure).toBeUndefined();
  }, 60_000);
});
