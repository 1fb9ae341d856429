/**
 * A plan's fingerprints are compared across versions (`apply plan.json` made by an older acctsync),
 * so their bytes are pinned: the values below were computed before the canonical JSON stopped
 * building a sorted copy of each object (docs/performance.md). Member order must not matter, and
 * integer-like member names keep the order they always had.
 */
import { describe, expect, it } from 'vitest';
import type { LiveState } from '../../src/live/index.js';
import { desiredFingerprint, liveFingerprint } from '../../src/plan/fingerprint.js';
import type { DesiredObject, DesiredState } from '../../src/resources/index.js';

const at = { file: 'a.yaml', line: 1, column: 1 };

function desiredState(labels: Record<string, string>): DesiredState {
  const objects: DesiredObject[] = [
    {
      kind: 'tunnel_group_backends',
      key: 'tunnel_group_backends/t',
      name: 't',
      sensitive: [],
      source: at,
      fields: {
        metadata: '{"b":1,"a":{"y":[1,{"d":2,"c":3}],"10":0,"9":1}}',
        labels,
        description: 'group',
      },
    },
    {
      kind: 'ip_policies',
      key: 'ip_policies/p',
      name: 'p',
      sensitive: [],
      source: at,
      fields: { description: 'policy' },
    },
  ];
  return { scope: 'pin', objects };
}

function liveState(labels: Record<string, string>): LiveState {
  return {
    kinds: ['ip_policies', 'tunnel_group_backends'],
    objects: [
      {
        kind: 'ip_policies',
        id: 'ipp_1',
        record: { id: 'ipp_1', uri: 'https://x/ip_policies/ipp_1', description: 'policy', metadata: '' },
        userMetadata: '',
      },
      {
        kind: 'tunnel_group_backends',
        id: 'bkdtg_1',
        record: { labels, id: 'bkdtg_1', description: 'group', metadata: '{"z":1}', tunnels: [] },
        userMetadata: '{"z":1}',
      },
    ],
  };
}

const labels = { 10: 'a', app: 'x', 9: 'b', Zed: 'y' };
const reordered = { Zed: 'y', 9: 'b', app: 'x', 10: 'a' };
const plainLabels = { zone: 'eu', app: 'x' };

describe('plan fingerprints', () => {
  it('keep the bytes they had, whatever the member order', () => {
    const live = 'sha256:d7f8ee6b751e11d6a760673ea837d40d659a7ffd749460d297e1369c157cd296';
    const desired = 'sha256:59a09f948c7bf1c320e5811882a7a6a63a67f4b97ecbb2fba6d4d44948366668';
    expect(liveFingerprint(liveState(labels))).toBe(live);
    expect(liveFingerprint(liveState(reordered))).toBe(live);
    expect(desiredFingerprint(desiredState(labels), 'pin')).toBe(desired);
    expect(desiredFingerprint(desiredState(reordered), 'pin')).toBe(desired);
  });

  it('keep their bytes for member names that are all words', () => {
    expect(liveFingerprint(liveState(plainLabels))).toBe(
      'sha256:952ee8f5f1d29074de8aa7748bae4d75d9a17de0cc4d949938b2f06524ed74d5',
    );
    expect(desiredFingerprint(desiredState(plainLabels), 'pin')).toBe(
      'sha256:548a5239f06160e3802ff0df2b2001969b3f8fbc8d72c208d0b0de2fdb94577c',
    );
  });

  it('change with a value', () => {
    expect(liveFingerprint(liveState({ ...labels, app: 'y' }))).not.toBe(liveFingerprint(liveState(labels)));
  });
});
