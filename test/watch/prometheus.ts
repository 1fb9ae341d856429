/**
 * A strict-enough parser of the Prometheus text exposition format (0.0.4) for tests: every line is
 * a comment, a `# HELP`/`# TYPE`, or `name{label="value",...} number`; anything else throws.
 */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Exposition {
  readonly types: ReadonlyMap<string, string>;
  readonly samples: readonly Sample[];
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;

/** As Prometheus reads sample values (Go's ParseFloat): NaN and Inf in any letter case. */
function parseValue(text: string): number {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Infinity;
  if (lower === '-inf') return -Infinity;
  if (lower === 'nan') return NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`not a sample value: ${text}`);
  return value;
}

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1] ?? '', type[2] ?? '');
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = sampleLine.exec(line);
    if (!match) throw new Error(`line ${index + 1} is not a sample: ${line}`);
    const labels: Record<string, string> = {};
    const body = match[2] ?? '';
    labelPair.lastIndex = 0;
    let consumed = 0;
    for (let pair = labelPair.exec(body); pair !== null; pair = labelPair.exec(body)) {
      labels[pair[1] ?? ''] = (pair[2] ?? '').replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
      consumed = labelPair.lastIndex;
    }
    if (consumed !== body.length) throw new Error(`line ${index + 1} has malformed labels: ${line}`);
    samples.push({ name: match[1] ?? '', labels, value: parseValue(match[3] ?? '') });
  }
  return { types, samples };
}

/** The samples of one metric (histograms: pass `name_bucket`, `name_count`, ...). */
export function samplesOf(exposition: Exposition, name: string): Sample[] {
  return exposition.samples.filter((s) => s.name === name);
}
