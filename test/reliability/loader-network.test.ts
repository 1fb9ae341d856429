/** The loader has no API client: nothing it imports can open a connection. */
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';
import { importGraph } from './support/loader-fuzz.js';

describe('loader isolation', () => {
  it('the loader cannot reach the API: nothing it imports opens a connection', async () => {
    const { files, bare } = await importGraph(`${repoRoot}src/config/index.ts`);
    const reached = [...files.keys()].map((f) => relative(repoRoot, f));
    expect(reached.filter((f) => /^src\/(api|emulator|apply|plan|watch|cli)\//.test(f))).toEqual([]);
    const network = [
      'undici',
      'node:http',
      'node:https',
      'node:tls',
      'node:dns',
      'node:http2',
      'http',
      'https',
    ];
    expect([...bare.keys()].filter((b) => network.includes(b))).toEqual([]);
    // node:net is there for its address parsers (isIP); nothing may use its sockets.
    for (const file of [...(bare.get('node:net') ?? []), ...(bare.get('net') ?? [])]) {
      const uses = [...(files.get(file) ?? '').matchAll(/\bnet\.(\w+)/g)].map((m) => m[1]);
      expect(
        uses.filter((u) => !/^isIP(v4|v6)?$/.test(u ?? '')),
        file,
      ).toEqual([]);
    }
  });
});
