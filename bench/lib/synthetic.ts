/**
 * Synthetic accounts: YAML configs of `n` objects spread over the kinds (loaded by the real loader,
 * so they are what a user could write), and desired/live states built directly for the pure planner.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatMetadata } from '../../src/plan/index.js';
import { type LiveObject, type LiveState } from '../../src/live/index.js';
import type { DesiredObject, DesiredState, KindName } from '../../src/resources/index.js';

/** Objects per unit of the YAML account; see {@link writeAccount}. */
export const objectsPerUnit = 10;

/**
 * Writes a config of about `n` objects (rounded up to a multiple of 10) under `dir`, one file per
 * group. Each unit of 10: an IP policy with 2 rules, a tunnel credential, a reserved address, a
 * reserved domain, an HTTP-response and a tunnel-group backend, an HTTPS edge with one route.
 * `variant` changes every description, to make an all-update plan.
 */
export async function writeAccount(dir: string, n: number, scope: string, variant = ''): Promise<number> {
  const units = Math.ceil(n / objectsPerUnit);
  await mkdir(dir, { recursive: true });
  const head = `version: 1\nscope: ${scope}\n`;
  const q = (s: string): string => JSON.stringify(s);
  const policies: string[] = [];
  const access: string[] = [];
  const reserved: string[] = [];
  const domains: string[] = [];
  const backends: string[] = [];
  const edges: string[] = [];
  for (let i = 0; i < units; i++) {
    const oct = `${10 + Math.floor(i / 65536)}.${Math.floor(i / 256) % 256}.${i % 256}`;
    policies.push(
      `  p${i}:\n    description: ${q(`policy ${i}${variant}`)}\n    rules:\n` +
        `      - { cidr: ${oct}.0/25, action: allow }\n      - { cidr: ${oct}.128/25, action: deny }`,
    );
    access.push(
      `  c${i}:\n    description: ${q(`credential ${i}${variant}`)}\n    acl: ['bind:h${i}.example.com']`,
    );
    reserved.push(`  a${i}:\n    description: ${q(`address ${i}${variant}`)}\n    region: eu`);
    domains.push(
      `  d${i}:\n    description: ${q(`domain ${i}${variant}`)}\n    domain: d${i}.bench.example.com`,
    );
    backends.push(
      `  r${i}:\n    description: ${q(`response ${i}${variant}`)}\n    http_response: { status_code: 200, body: ok }`,
      `  t${i}:\n    description: ${q(`group ${i}${variant}`)}\n    tunnel_group: { labels: { app: a${i} } }`,
    );
    edges.push(
      `  e${i}:\n    description: ${q(`edge ${i}${variant}`)}\n    routes:\n` +
        `      - { match_type: path_prefix, match: /r${i}, description: ${q(`route ${i}${variant}`)} }`,
    );
  }
  const files: Array<[string, string, string[]]> = [
    ['network.yaml', 'ip_policies', policies],
    ['access.yaml', 'credentials', access],
    ['addrs.yaml', 'reserved_addrs', reserved],
    ['domains.yaml', 'reserved_domains', domains],
    ['backends.yaml', 'backends', backends],
    ['edges.yaml', 'https_edges', edges],
  ];
  for (const [file, section, entries] of files) {
    await writeFile(join(dir, file), `${head}\n${section}:\n${entries.join('\n')}\n`);
  }
  return units * objectsPerUnit;
}

/** Kinds of the pure-planner states, alternating. */
const pureKinds = ['ip_policies', 'credentials', 'reserved_addrs'] as const satisfies readonly KindName[];

function pureFields(kind: (typeof pureKinds)[number], i: number): Record<string, unknown> {
  switch (kind) {
    case 'ip_policies':
      return { description: `policy ${i}` };
    case 'credentials':
      return { description: `credential ${i}`, acl: [`bind:h${i}.example.com`] };
    case 'reserved_addrs':
      return { description: `address ${i}`, region: 'eu' };
  }
}

const idPrefix = { ip_policies: 'ipp_', credentials: 'cr_', reserved_addrs: 'ra_' } as const;

/**
 * A desired state of `n` objects and the live state that already matches it (every object marked
 * with the scope, same values), built without YAML or HTTP. With `live: 'empty'` the plan is all
 * creates. The live records carry what the emulator returns for these kinds.
 */
export function pureStates(
  n: number,
  scope: string,
  live: 'matching' | 'empty',
): { desired: DesiredState; live: LiveState } {
  const objects: DesiredObject[] = [];
  const liveObjects: LiveObject[] = [];
  for (let i = 0; i < n; i++) {
    const kind = pureKinds[i % pureKinds.length] ?? 'ip_policies';
    const name = `o${i}`;
    const key = `${kind}/${name}`;
    const fields = pureFields(kind, i);
    objects.push({
      kind,
      key,
      name,
      fields,
      sensitive: [],
      source: { file: 'bench.yaml', line: i + 1, column: 3 },
    });
    if (live === 'empty') continue;
    const id = `${idPrefix[kind]}${String(i).padStart(12, '0')}`;
    const marker = { scope, key };
    const extra: Record<string, unknown> =
      kind === 'credentials'
        ? { token: null, owner_id: 'usr_bench' }
        : kind === 'reserved_addrs'
          ? { addr: `1.tcp.eu.example.net:${20000 + (i % 40000)}`, endpoint_configuration: null }
          : {};
    liveObjects.push({
      kind,
      id,
      record: {
        id,
        uri: `http://127.0.0.1/${kind}/${id}`,
        created_at: '2025-01-01T00:00:00Z',
        ...fields,
        ...extra,
        metadata: formatMetadata('', marker),
      },
      marker,
      userMetadata: '',
    });
  }
  const order = new Map<string, number>(pureKinds.map((k, i) => [k, i]));
  liveObjects.sort((a, b) => (order.get(a.kind) ?? 0) - (order.get(b.kind) ?? 0) || (a.id < b.id ? -1 : 1));
  return {
    desired: { scope, objects },
    live: { kinds: [...pureKinds], objects: liveObjects },
  };
}
