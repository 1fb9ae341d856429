/**
 * Traffic-policy expressions as `acctsync validate` meets them: a corpus of broken expressions,
 * written in every YAML scalar style, each refused at the line and column of its offending token
 * in one run; and the expressions of the platform's traffic-policy reference, each accepted.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';

type Style = 'plain' | 'single' | 'double' | 'folded' | 'literal';

interface Broken {
  readonly style: Style;
  /** The expression; `\n` splits the lines of a block scalar. */
  readonly expression: string;
  /** The text the caret must point at (its first occurrence on its line); `$` for the end of the expression. */
  readonly at: string;
  readonly message: RegExp;
  readonly hint?: RegExp;
}

const broken: readonly Broken[] = [
  { style: 'plain', expression: "conn.client_ip == '1.2.3.4' &&", at: '$', message: /Unexpected token: EOF/ },
  { style: 'double', expression: "conn.client_ip == ('1.2.3.4'", at: '$', message: /Expected RPAREN/ },
  {
    style: 'single',
    expression: "conn.client_ip = ''1.2.3.4''",
    at: '= ',
    message: /Unexpected character: =/,
  },
  {
    style: 'double',
    expression: "conn.clent_ip == '1.2.3.4'",
    at: 'clent_ip',
    message: /unknown variable conn\.clent_ip/,
    hint: /did you mean conn\.client_ip\?/,
  },
  {
    style: 'plain',
    expression: "conn.tls.verson == '1.3'",
    at: 'verson',
    message: /unknown variable conn\.tls\.verson/,
    hint: /did you mean conn\.tls\.version\?/,
  },
  {
    style: 'literal',
    expression: "conn.tls.version == '1.3' &&\n  conn.geo.contry_code != 'US'",
    at: 'contry_code',
    message: /unknown variable conn\.geo\.contry_code/,
    hint: /did you mean conn\.geo\.country_code\?/,
  },
  {
    style: 'folded',
    expression: "conn.client_port == 443 &&\ninCidrRang(conn.client_ip, '10.0.0.0/8')",
    at: 'inCidrRang',
    message: /unknown function inCidrRang\b/,
    hint: /did you mean inCidrRange\?/,
  },
  {
    style: 'plain',
    expression: "base64.decod('aGk=') == b'hi'",
    at: 'base64',
    message: /unknown function base64\.decod/,
    hint: /did you mean base64\.decode\?/,
  },
  {
    style: 'plain',
    expression: 'conn.client_ip.isPrivatIp()',
    at: 'isPrivatIp',
    message: /unknown function isPrivatIp\b/,
    hint: /did you mean isPrivateIp\?/,
  },
  {
    style: 'plain',
    expression: "tme.now > '2026-01-01T00:00:00Z'",
    at: 'tme',
    message: /unknown variable tme\.now\b/,
    hint: /did you mean time\.now\?/,
  },
  {
    style: 'double',
    expression: "conn.server_regon == 'eu'",
    at: 'server_regon',
    message: /unknown variable conn\.server_regon\b/,
    hint: /did you mean conn\.server_region\?/,
  },
  {
    style: 'plain',
    expression: "endpoint.hots == 'db.example.com'",
    at: 'hots',
    message: /unknown variable endpoint\.hots\b/,
    hint: /did you mean endpoint\.host\?/,
  },
  {
    style: 'plain',
    expression: "conn.tls.sni.upperAsci() == 'X'",
    at: 'upperAsci',
    message: /unknown function upperAsci\b/,
    hint: /did you mean upperAscii\?/,
  },
  {
    style: 'plain',
    expression: 'request.size > 10',
    at: 'request',
    message: /unknown variable request\.size\b/,
    hint: /variables start with .*conn\., .*endpoint\., .*time\./,
  },
  {
    style: 'single',
    expression: 'conn.client_ip == 5',
    at: '==',
    message: /no such overload: string == int/,
  },
  {
    style: 'plain',
    expression: "conn.client_port == '443'",
    at: '==',
    message: /no such overload: int == string/,
  },
  {
    style: 'literal',
    expression: 'conn.tls.session_resumed &&\n  conn.client_port',
    at: 'conn.client_port',
    message: /Logical operator requires bool operands, got 'int'/,
  },
  {
    style: 'double',
    expression: 'size(conn.client_ip, 2) > 0',
    at: 'size',
    message: /no matching overload for 'size\(string, int\)'/,
    hint: /size takes: size\(string\): int/,
  },
  {
    style: 'plain',
    expression: 'inCidrRange(conn.client_ip)',
    at: 'inCidrRange',
    message: /no matching overload for 'inCidrRange\(string\)'/,
    hint: /inCidrRange takes: inCidrRange\(string, string\): bool/,
  },
  {
    style: 'plain',
    expression: 'conn.client_port',
    at: 'conn',
    message: /evaluates to int; .* must be a bool/,
  },
  {
    style: 'plain',
    expression: 'conn.tls == 1',
    at: 'tls',
    message: /conn\.tls is a namespace, not a value/,
    hint: /conn\.tls\.version/,
  },
];

/** The expression as a YAML value of `style` at `indent`, line by line. */
function scalar(style: Style, expression: string, indent: string): string[] {
  switch (style) {
    case 'plain':
      return [expression];
    case 'single':
      return [`'${expression}'`];
    case 'double':
      return [`"${expression}"`];
    case 'folded':
    case 'literal':
      return [style === 'folded' ? '>-' : '|-', ...expression.split('\n').map((l) => `${indent}${l}`)];
  }
}

/** A TLS edge per expression: each in a rule of its own, so every one is reported. */
function config(expressions: readonly { style: Style; expression: string }[], actions = '[{ type: deny }]') {
  const lines = ['version: 1', 'scope: cel', 'tls_edges:'];
  expressions.forEach(({ style, expression }, i) => {
    const [first, ...rest] = scalar(style, expression, '              ');
    lines.push(
      `  edge${i}:`,
      `    hostports: ['e${i}.example.com:443']`,
      '    policy:',
      '      inbound:',
      `        - name: rule-${i}`,
      '          expressions:',
      `            - ${first}`,
      ...rest,
      `          actions: ${actions}`,
    );
  });
  return `${lines.join('\n')}\n`;
}

/** Where `entry.at` is in the file: its line and 1-based column. */
function expectedPosition(text: string, index: number, entry: Broken): { line: number; column: number } {
  const lines = text.split('\n');
  const start = lines.indexOf(`        - name: rule-${index}`);
  const valueLines = lines.slice(start + 2, lines.indexOf(`          actions: [{ type: deny }]`, start));
  if (entry.at === '$') {
    const last = valueLines.at(-1)!;
    const closing = entry.style === 'single' || entry.style === 'double' ? 1 : 0;
    return { line: start + 2 + valueLines.length, column: last.length + 1 - closing };
  }
  const offset = valueLines.findIndex((l, i) => l.indexOf(entry.at, i === 0 ? 14 : 0) >= 0);
  const line = valueLines[offset]!;
  return { line: start + 3 + offset, column: line.indexOf(entry.at, offset === 0 ? 14 : 0) + 1 };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'acctsync-cel-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function validate(file: string, text: string): Promise<CliResult> {
  await writeFile(join(dir, file), text);
  return runCli(['validate', file], { cwd: dir });
}

describe('traffic-policy expressions in validate', () => {
  it('refuses every broken expression in one run, each at its offending token', async () => {
    const text = config(broken);
    const run = await validate('broken.yaml', text);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the desired state is invalid: ${broken.length} errors`);
    const reports = run.stderr.split('\n\n');
    broken.forEach((entry, i) => {
      const { line, column } = expectedPosition(text, i, entry);
      const report = reports.find((r) => r.includes(`rule "rule-${i}"`));
      expect(report, `rule-${i}: ${entry.expression}`).toBeDefined();
      expect(report!.split('\n').find((l) => l.includes(`rule "rule-${i}"`))).toMatch(
        new RegExp(`^(error: .*\\n)?broken\\.yaml:${line}:${column}: error: `),
      );
      expect(report).toMatch(entry.message);
      if (entry.hint !== undefined) expect(report).toMatch(entry.hint);
      // The caret line sits under the column.
      const caret = report!.split('\n').find((l) => /^ +\| +\^$/.test(l));
      expect(caret?.indexOf('^')).toBe(caret!.indexOf('|') + 1 + column);
    });
  });

  it('refuses an unknown action type with a did-you-mean, and a documented action with a wrong config', async () => {
    const text = config(
      [{ style: 'plain', expression: "conn.client_ip == '1.2.3.4'" }],
      "[{ type: dny }, { type: log, config: { level: info } }, { type: restrict-ips, config: { allow: '10.0.0.0/8' } }]",
    );
    const run = await validate('actions.yaml', text);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('actions.yaml:11:29: error: rule "rule-0": unknown action type dny');
    expect(run.stderr).toContain('hint: did you mean deny?');
    expect(run.stderr).toContain('the log action needs config.metadata');
    expect(run.stderr).toContain('actions.yaml:11:66: error: rule "rule-0": unknown member level');
    expect(run.stderr).toContain('allow of the restrict-ips action must be a list<string>');
  });

  it('checks the config of every action the reference documents for on_tcp_connect', async () => {
    const good = config(
      [{ style: 'plain', expression: "conn.server_region == 'eu'" }],
      "[{ type: set-vars, config: { vars: [{ tier: gold }] } }, { type: terminate-tls, config: { min_version: '1.3', mutual_tls_verification_strategy: request } }, { type: forward-internal, config: { url: 'tls://db.internal:443', on_error: continue } }, { type: close-connection }]",
    );
    const accepted = await validate('good-actions.yaml', good);
    expect(accepted.stderr).toBe('');
    expect(accepted.code).toBe(0);
    const bad = config(
      [{ style: 'plain', expression: "conn.server_region == 'eu'" }],
      "[{ type: terminate-tls, config: { min_version: '1.1', constructor: x } }, { type: forward-internal, config: { on_eror: halt } }, { type: close-conection }]",
    );
    const refused = await validate('bad-actions.yaml', bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('min_version of the terminate-tls action must be one of 1.2, 1.3');
    expect(refused.stderr).toContain('the forward-internal action needs config.url');
    // A member named like an Object method is an unknown member, not the method.
    expect(refused.stderr).toContain("unknown member constructor of the terminate-tls action's config");
    expect(refused.stderr).toMatch(
      /unknown member on_eror[^\n]*\n(?:.*\n)*?\s*hint: did you mean on_error\?/,
    );
    expect(refused.stderr).toMatch(
      /unknown action type close-conection[^\n]*\n(?:.*\n)*?\s*hint: did you mean close-connection\?/,
    );
  });

  it('accepts the expressions of the platform reference', async () => {
    const run = await validate(
      'valid.yaml',
      config(reference.map((expression) => ({ style: 'double', expression }))),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`valid: ${reference.length} objects in 1 file`);
  });
});

/** Examples of the platform's reference pages (connection, geo, TLS, IP intelligence variables; macros). */
const reference = [
  'conn.bytes_in > 1000',
  'conn.bytes_out > 1000',
  "conn.client_ip in ['::1', '127.0.0.1']",
  'conn.client_port == 80',
  "conn.server_ip == '192.168.1.1'",
  'conn.server_port == 80',
  "conn.ts.start > timestamp('2023-12-31T00:00:00Z')",
  "conn.geo.city == 'Strongsville'",
  "conn.geo.country == 'United States'",
  "conn.geo.country_code != 'US'",
  'double(conn.geo.latitude) >= 45.0',
  'double(conn.geo.longitude) <= -93.0',
  "conn.geo.radius <= '5'",
  "conn.geo.subdivision == 'California'",
  "conn.tls.cipher_suite == 'TLS_AES_128_GCM_SHA256'",
  "conn.tls.ja4_fingerprint == 't13d1717h2_5b57614c22b0_f0fc7018f8e8'",
  "conn.tls.negotiated_alpn == 'h2'",
  'conn.tls.session_resumed == false',
  "conn.tls.sni == 'client.example.com'",
  "conn.tls.version == '1.3'",
  'size(conn.tls.client.extensions) > 0',
  "conn.tls.client.extensions[0].id == '2.5.29.15'",
  'conn.tls.client.extensions[0].critical',
  "conn.tls.client.issuer.common_name == 'exampleca.com'",
  "conn.tls.client.issuer.country == ['US']",
  "conn.tls.client.issuer.organization == ['Example CA']",
  "conn.tls.client.san.dns_names == ['www.example.com', 'example.com']",
  "conn.tls.client.serial_number == 'b53017e79d4a5208b314a55d3574e0a8'",
  "conn.tls.client.signature_algorithm == 'SHA256-RSA'",
  "conn.tls.client.subject == 'CN=www.example.com'",
  "conn.tls.client.validity.not_after == timestamp('2023-01-01T00:00:00Z')",
  "conn.tls.server.subject.common_name == 'ngrok-server.example.com'",
  "conn.tls.server.validity.not_before < timestamp('2020-01-01T00:00:00Z')",
  "!('proxy.anonymous.tor' in conn.client_ip.categories)",
  'conn.client_ip.is_on_blocklist == true',
  'conn.client_ip.is_tor_node == true',
  'conn.client_ip.as.number == 12345',
  "conn.client_ip.as.organization == 'COMCAST-7922'",
  "conn.client_ip.geo.location.country_code != 'US'",
  'conn.client_ip.geo.location.is_eu == true',
  "conn.client_ip.geo.registered_location.timezone == 'America/New_York'",
  "inCidrRange(conn.client_ip, '66.249.66.1/24')",
  "inCidrRanges(conn.client_ip, ['66.249.66.1/24', '2001:4860::/32'])",
  "basic_auth.encode('username', 'password1') == 'Basic dXNlcm5hbWU6cGFzc3dvcmQx'",
  "hash.sha256('hello') == '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'",
  'rand.double() >= 0.5',
  'rand.int(0, 10) >= 5',
  "base64.encode(b'hello') == 'aGVsbG8='",
  "conn.client_ip.isPrivateIp() || conn.tls.sni.endsWith('.example.com')",
  "conn.tls.sni.lower().matches('^[a-z0-9.-]+$')",
  "[1, 2, 3].all(x, x > 0) && size(['hello', 'world']) == 2",
  "conn.server_region == 'eu'",
  "time.now > '2026-01-01T00:00:00Z'",
  "endpoint.host == 'db.example.com' && endpoint.port == 443 && endpoint.protocol == 'tls'",
  "endpoint.id != '' && endpoint.url.startsWith('tls://') && endpoint.addr != ''",
  "conn.k8s.pod.metadata.namespace == 'default' && conn.k8s.pod.metadata.annotations['k8s.ngrok.com/team'] == 'db'",
  "conn.server_ip.as.number == 12345 && conn.server_ip.geo.location.country_code == 'US'",
  "actions.ngrok.restrict_ips.action == 'allow' && actions.ngrok.restrict_ips.error.code == ''",
  "actions.ngrok.terminate_tls.version == '1.3' && size(actions.ngrok.terminate_tls.warnings) == 0",
  "actions.ngrok.terminate_tls.client.subject.common_name == 'client'",
  "vars.tier == 'gold'",
  "['hello', 'mellow'].join(' ') == 'hello mellow' && 'hello mellow'.lastIndexOf('ello') == 7",
  "'TacoCat'.upperAscii() == 'TACOCAT' && b'hello'.size() == 5",
  '[3, 1, 2].sortBy(e, e) == [1, 2, 3] && [1, 2, 3, 4].map(n, n % 2 == 0, n * 2) == [4, 8]',
];
