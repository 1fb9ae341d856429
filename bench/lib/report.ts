/** Output of a scenario: one JSON line (machine-readable) and a table (for people). */

export type Cell = string | number | boolean | null;
export type Row = Readonly<Record<string, Cell>>;

export interface ScenarioResult {
  readonly scenario: string;
  /** Figures and ratios, one row per measured configuration. */
  readonly rows: readonly Row[];
  /** Targets checked: name → met. */
  readonly targets: Readonly<Record<string, boolean>>;
  readonly notes?: readonly string[];
}

/** Renders rows as an aligned text table; columns are the union of the rows' keys. */
export function table(rows: readonly Row[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const text = (c: Cell | undefined): string => (c === undefined || c === null ? '' : String(c));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => text(r[c]).length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  return [
    line(columns),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(columns.map((c) => text(r[c])))),
  ].join('\n');
}

/** Prints the JSON line first (prefixed for grepping), then the table, targets and notes. */
export function print(result: ScenarioResult): void {
  console.log(`BENCH ${JSON.stringify({ date: new Date().toISOString(), ...result })}`);
  console.log(`\n== ${result.scenario} ==`);
  console.log(table(result.rows));
  for (const [name, met] of Object.entries(result.targets)) {
    console.log(`target ${met ? 'MET   ' : 'MISSED'} ${name}`);
  }
  for (const note of result.notes ?? []) console.log(`note: ${note}`);
  console.log('');
}
