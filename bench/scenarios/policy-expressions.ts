/**
 * Scenario 8: what checking traffic-policy CEL adds to `acctsync validate`. The same config of 100
 * TLS edges with 10 rules each is validated with one expression per rule (1,000 expressions) and
 * with none, in paired runs of the spawned CLI; and the check itself is timed in process, cold
 * (its first 1,000 expressions, the CEL environment built on the way). The target is on the
 * in-process time, which a loaded machine blurs far less than the difference of two spawns.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkPolicyExpression } from '../../src/traffic-policy/index.js';
import type { ScenarioResult } from '../lib/report.js';
import { median, round } from '../lib/stats.js';

const cli = resolve('dist/cli/main.js');
const edges = 100;
const rulesPerEdge = 10;

/** Expressions in the shapes of the platform's reference, each one different. */
function expression(i: number): string {
  const shapes = [
    `conn.client_ip == '198.51.${i >> 8}.${i & 255}'`,
    `inCidrRange(conn.client_ip, '10.${i >> 8}.${i & 255}.0/24') && conn.client_port == 443`,
    `conn.geo.country_code != 'C${i}' || conn.tls.version == '1.3'`,
    `'category-${i}' in conn.client_ip.categories`,
    `conn.tls.sni.endsWith('.e${i}.example.com') && !conn.client_ip.isPrivateIp()`,
  ];
  return shapes[i % shapes.length]!;
}

function config(withExpressions: boolean): string {
  const lines = ['version: 1', 'scope: bench', 'tls_edges:'];
  for (let e = 0; e < edges; e++) {
    lines.push(`  edge${e}:`, `    hostports: ['e${e}.example.com:443']`, '    policy:', '      inbound:');
    for (let r = 0; r < rulesPerEdge; r++) {
      const i = e * rulesPerEdge + r;
      const expressions = withExpressions ? `[${JSON.stringify(expression(i))}]` : '[]';
      lines.push(
        `        - name: rule-${r}`,
        `          expressions: ${expressions}`,
        '          actions: [{ type: deny }]',
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

async function validateMs(file: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, 'validate', file], { stdio: 'ignore' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`validate ${file} exited with ${code}`);
  return performance.now() - t0;
}

/** Checks the 1,000 expressions in this process, the first time (the environment is built then). */
function checkInProcessMs(): number {
  const t0 = performance.now();
  for (let i = 0; i < edges * rulesPerEdge; i++) {
    if (checkPolicyExpression(expression(i)) !== undefined)
      throw new Error(`${expression(i)} does not compile`);
  }
  return performance.now() - t0;
}

export async function policyExpressions(quick: boolean): Promise<ScenarioResult> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-bench-cel-'));
  try {
    const inProcess = checkInProcessMs();
    const withCel = join(dir, 'with.yaml');
    const without = join(dir, 'without.yaml');
    await writeFile(withCel, config(true));
    await writeFile(without, config(false));
    const runs = quick ? 3 : 9;
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < runs; i++) {
      b.push(await validateMs(without));
      a.push(await validateMs(withCel));
    }
    const added = median(a) - median(b);
    return {
      scenario: 'policy-expressions',
      rows: [
        {
          runs,
          expressions: edges * rulesPerEdge,
          validate_ms: round(median(a)),
          without_expressions_ms: round(median(b)),
          added_ms: round(added),
          check_in_process_ms: round(inProcess),
        },
      ],
      targets: { 'checking 1,000 expressions adds under 100 ms to validate': inProcess < 100 },
      notes: [
        'added: validate with 1,000 expressions minus the same config with none, medians of paired runs',
        'check_in_process_ms: the 1,000 expressions checked cold in this process (what validate adds)',
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
