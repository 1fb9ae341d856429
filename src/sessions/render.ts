/** Sessions as text: an aligned table for the list, `key: value` lines for one session. */
import { inert } from '../inert.js';
import type { TunnelSession } from './session.js';

const columns: ReadonlyArray<readonly [string, (s: TunnelSession) => string]> = [
  ['ID', (s) => s.id],
  ['AGENT', (s) => s.agent_version],
  ['OS', (s) => s.os],
  ['REGION', (s) => s.region],
  ['TRANSPORT', (s) => s.transport],
  ['IP', (s) => s.ip],
  ['CREDENTIAL', (s) => s.credential?.id ?? ''],
  ['STARTED', (s) => s.started_at],
];

/** Columns padded to their widest cell; a note instead of an empty table. */
export function sessionsTable(sessions: readonly TunnelSession[]): string {
  if (sessions.length === 0) return 'no online tunnel sessions\n';
  const rows = [
    columns.map(([title]) => title),
    ...sessions.map((s) => columns.map(([, cell]) => inert(cell(s)))),
  ];
  const widths = columns.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return (
    rows
      .map((r) =>
        r
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** Every member of one session, one per line. */
export function sessionDetails(session: TunnelSession): string {
  const lines: Array<[string, string]> = [
    ['id', session.id],
    ['agent_version', session.agent_version],
    ['os', session.os],
    ['region', session.region],
    ['transport', session.transport],
    ['ip', session.ip],
    ['credential', session.credential?.id ?? ''],
    ['started_at', session.started_at],
    ['metadata', session.metadata],
  ];
  const width = Math.max(...lines.map(([k]) => k.length));
  return lines.map(([k, v]) => `${`${k}:`.padEnd(width + 1)} ${inert(v)}`).join('\n') + '\n';
}
