import { describe, expect, it } from 'vitest';
import { markdownLimit, renderMarkdown, type Operation, type Plan } from '../../src/plan-format/index.js';

/** A plan as the planner builds it for a large account: many operations of two kinds. */
function planOf(action: 'create' | 'delete', n: number): Plan {
  const operations: Operation[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 2 === 0 ? 'https_edges' : 'certificate_authorities';
    const key = `${kind}/object-with-a-long-descriptive-name-${String(i).padStart(5, '0')}`;
    operations.push({
      id: `${action} ${key}`,
      action,
      kind,
      key,
      requests: [],
      ...(action === 'delete'
        ? { liveId: `id_${String(i).padStart(24, '0')}`, reason: 'left the config' }
        : {}),
      changes:
        action === 'create'
          ? [{ path: ['description'], after: `object number ${i} created by the plan` }]
          : [],
      dependsOn: [],
      reason_code: action === 'delete' ? 'delete_because_removed_from_config' : 'create_because_missing',
    });
  }
  return {
    formatVersion: 2,
    createdAt: '2026-11-23T00:00:00.000Z',
    scope: 'default',
    configPaths: ['.'],
    desiredFingerprint: 'd',
    liveFingerprint: 'l',
    resolvedIds: {},
    operations,
    unmanaged: [],
    summary: {
      create: action === 'create' ? n : 0,
      update: 0,
      replace: 0,
      delete: action === 'delete' ? n : 0,
      adopt: 0,
      rename: 0,
      unchanged: 0,
      managed: n,
      removed: action === 'delete' ? n : 0,
    },
    notes: [],
    options: { adopt: false, noDelete: false },
  };
}

describe('markdown plan size', () => {
  it('stays under the PR comment limit with 5,000 deletes, with exact counts and a way to the full plan', () => {
    const md = renderMarkdown(planOf('delete', 5000));
    expect(md.length).toBeLessThan(markdownLimit);
    expect(md).toContain('Plan: 0 to create, 0 to update, 0 to replace, 5000 to delete, 0 to adopt');
    const listed = md.split('\n').filter((l) => l.startsWith('| `-` |')).length;
    expect(listed).toBeGreaterThan(0);
    const rest =
      /_(\d+) more destructive changes not listed: (\d+) × delete HTTPS edge, (\d+) × delete certificate authority\./.exec(
        md,
      );
    expect(rest).not.toBeNull();
    // In code-point order, the one order of every output: upper case before lower case.
    const [, total, edges, cas] = (rest ?? []).map(Number);
    expect(listed + (total ?? 0)).toBe(5000);
    expect((cas ?? 0) + (edges ?? 0)).toBe(total);
    expect(md).toContain('acctsync plan --out plan.json');
  });

  it('stays under the PR comment limit with 5,000 creates, with exact counts and a way to the full plan', () => {
    const md = renderMarkdown(planOf('create', 5000));
    expect(md.length).toBeLessThan(markdownLimit);
    expect(md).toContain('Plan: 5000 to create, 0 to update');
    expect(md).toMatch(/_Truncated: \d+ of 10000 lines left out/);
    expect(md).toContain('acctsync plan --out plan.json');
  });
});

describe('the markdown budget leaves room for what a workflow adds', () => {
  it('a 900-delete markdown is at most 65,000 characters: 536 of GitHub 65,536 stay for the marker', () => {
    expect(markdownLimit).toBe(65_000);
    const md = renderMarkdown(planOf('delete', 900));
    expect(md.length).toBeLessThanOrEqual(65_000);
    expect(`<!-- acctsync-plan -->\n${md}`.length).toBeLessThan(65_536);
  });

  it('stays under the limit with thousands of outcome changes beside 5,000 deletes, counting those left out', () => {
    const outcome = (verdict: 'allowed' | 'refused', by: string) => ({ verdict, by });
    const trafficChanges = Array.from({ length: 400 }, (_, e) => ({
      edge: `tls_edges/edge-with-a-long-descriptive-name-${String(e).padStart(4, '0')}`,
      operations: [`update tls_edges/edge-${e}`],
      samples: 'derived' as const,
      evaluated: 10,
      changes: Array.from({ length: e % 2 === 0 ? 10 : 0 }, (_, i) => ({
        connection: `203.0.${e % 256}.${i}`,
        before: outcome('allowed', 'IP policy office'),
        after: outcome('refused', 'rule deny-office-low'),
      })),
    }));
    const md = renderMarkdown({ ...planOf('delete', 5000), trafficChanges });
    expect(md.length).toBeLessThan(markdownLimit);
    const section = md.slice(md.indexOf('#### Traffic'), md.indexOf('#### Destructive changes'));
    const rows = section.split('\n').filter((l) => l.startsWith('| `tls_edges/')).length;
    expect(rows).toBeGreaterThan(0);
    expect(section).toContain(
      `_${2000 - rows} more outcome changes not listed: see \`trafficChanges\` in the JSON plan._`,
    );
    const edges = section.split('\n').filter((l) => l.startsWith('- `tls_edges/')).length;
    expect(section).toContain(`- _${400 - edges} more changed TLS edges not listed: see`);
    expect(md.indexOf('#### Traffic')).toBeLessThan(md.indexOf('#### Destructive changes'));
  });
});
