import { mkdtempSync, mkdirSync, openSync, closeSync, ftruncateSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { managedDescriptors, moduleFields } from '../../src/resources/index.js';
import { loadDesiredState, type LoadResult } from '../../src/config/index.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const temps: string[] = [];

function tempDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'acctsync-config-'));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function loaded(result: LoadResult) {
  if (!result.ok)
    throw new Error(result.diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`).join('\n'));
  return result;
}

describe('examples/account/', () => {
  it('loads cleanly, without warnings', async () => {
    const result = loaded(await loadDesiredState(['examples/account'], { cwd: repo, env: {} }));
    expect(result.warnings).toEqual([]);
    expect(result.files.length).toBeGreaterThanOrEqual(5);
    expect(result.state.scope).toBe('example');
  });

  it('uses every managed kind and every module', async () => {
    const { state } = loaded(await loadDesiredState(['examples/account'], { cwd: repo, env: {} }));
    const kinds = new Set(state.objects.map((o) => o.kind));
    for (const d of managedDescriptors()) {
      expect(kinds, d.kind).toContain(d.kind);
      for (const [member] of moduleFields(d)) {
        const used = state.objects.some((o) => o.kind === d.kind && o.fields[member] != null);
        expect(used, `${d.kind}.${member}`).toBe(true);
      }
    }
  });

  it('produces keys, resolved references and sensitive paths', async () => {
    const { state } = loaded(await loadDesiredState(['examples/account'], { cwd: repo, env: {} }));
    const byKey = new Map(state.objects.map((o) => [o.key, o]));
    expect(byKey.get('backends/web-split')?.fields).toEqual({
      backends: { 'backends/web': 95, 'backends/web-canary': 5 },
    });
    const rule = byKey.get('ip_policies/office/rules/2001:db8:1234::/48');
    expect(rule?.fields.ip_policy).toBe('ip_policies/office');
    // A nested item is placed at its list item, an entry at its key.
    expect(rule?.source).toEqual({ file: 'examples/account/network.yaml', line: 11, column: 9 });
    expect(byKey.get('ip_policies/blocklist')?.source).toMatchObject({ line: 12, column: 3 });
    const route = byKey.get('https_edges/web/routes/path_prefix:/admin');
    expect(route?.parentKey).toBe('https_edges/web');
    expect(route?.sensitive).toEqual([['oidc', 'client_secret']]);
    expect(route?.fields.oidc).toMatchObject({ client_secret: 'demo-oidc-client-secret' });
    const cert = byKey.get('tls_certificates/api-cert');
    expect(cert?.sensitive).toEqual([['certificate_pem'], ['private_key_pem']]);
    expect(String(cert?.fields.certificate_pem)).toMatch(/-----END CERTIFICATE-----\n$/);
    expect(cert?.source).toEqual({ file: 'examples/account/domains.yaml', line: 33, column: 3 });
  });
});

describe('loader behaviour', () => {
  it('refuses backends that lead back to themselves, at the name that closes the loop', async () => {
    const dir = tempDir({
      'backends.yaml': [
        'version: 1',
        'backends:',
        '  a:',
        '    failover: { backends: [b] }',
        '  b:',
        '    weighted: { backends: { a: 1 } }',
        '  c:',
        '    failover: { backends: [a] }',
        '',
      ].join('\n'),
    });
    const result = await loadDesiredState([dir], { env: {} });
    expect(result.ok).toBe(false);
    const cycles = result.ok ? [] : result.diagnostics.filter((d) => d.message.includes('cycle'));
    expect(cycles.map((d) => [d.line, d.message])).toEqual([
      [6, 'references form a cycle: backends/a -> backends/b -> backends/a'],
    ]);
  });

  it('reads {env}, marks it sensitive, warns about literal secrets and defaults the scope', async () => {
    const dir = tempDir({
      'acctsync.yaml': [
        'version: 1',
        'event_destinations:',
        '  m: { target: { monitoring: { api_key: literal-key, service: { env: SERVICE } } } }',
        '',
      ].join('\n'),
    });
    const result = loaded(await loadDesiredState([], { cwd: dir, env: { SERVICE: 'svc' } }));
    expect(result.state.scope).toBe('default');
    const [o] = result.state.objects;
    expect(o?.fields).toEqual({ target: { monitoring: { api_key: 'literal-key', service: 'svc' } } });
    expect(o?.sensitive).toEqual([
      ['target', 'monitoring', 'api_key'],
      ['target', 'monitoring', 'service'],
    ]);
    expect(result.warnings).toMatchObject([
      { severity: 'warning', line: 3, message: 'api_key is a secret written in the file' },
    ]);
  });

  it('defaults to the account/ directory when it exists', async () => {
    const dir = tempDir({ 'account/a.yaml': 'version: 1\nip_policies: { p: {} }\n' });
    const result = loaded(await loadDesiredState([], { cwd: dir }));
    expect(result.files).toEqual([join('account', 'a.yaml')]);
  });

  it('drops the final newline of one-line files and keeps multi-line files verbatim', async () => {
    const dir = tempDir({
      'acctsync.yaml':
        'version: 1\nip_policies:\n  a: { description: { file: one.txt }, metadata: { file: two.txt } }\n',
      'one.txt': 'secret\n',
      'two.txt': 'line 1\nline 2\n',
    });
    const { state } = loaded(await loadDesiredState([], { cwd: dir }));
    expect(state.objects[0]?.fields).toEqual({ description: 'secret', metadata: 'line 1\nline 2\n' });
  });

  it('refuses a UTF-16 secret file and names it', async () => {
    const dir = tempDir({
      'acctsync.yaml': 'version: 1\nip_policies:\n  a: { description: { file: utf16.txt } }\n',
    });
    // UTF-16LE with its byte-order mark: CJK text has no zero byte, so only the encoding check catches it.
    writeFileSync(
      join(dir, 'utf16.txt'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('\u79d8\u5bc6', 'utf16le')]),
    );
    const result = await loadDesiredState([], { cwd: dir });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics).toMatchObject([
      { file: 'acctsync.yaml', line: 3, message: 'file utf16.txt is not UTF-8 text' },
    ]);
  });

  it('refuses a 50 MB file without reading it', async () => {
    const dir = tempDir();
    const file = join(dir, 'huge.yaml');
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 50 * 1024 * 1024);
    closeSync(fd);
    const result = await loadDesiredState(['huge.yaml'], { cwd: dir });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics).toMatchObject([
      { file: 'huge.yaml', line: 1, message: 'the file is 50.0 MB; the limit is 5.0 MB per file' },
    ]);
  });

  it('reports every problem of every file at once', async () => {
    const dir = tempDir({
      'a.yaml': 'version: 1\nip_policies:\n  p: { descripton: x }\n',
      'b.yaml': 'version: 1\nip_restrictions:\n  r: { type: api, ip_policies: [q] }\n',
    });
    const result = await loadDesiredState(['.'], { cwd: dir });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}`)).toEqual(['a.yaml:3', 'b.yaml:3']);
  });
});
