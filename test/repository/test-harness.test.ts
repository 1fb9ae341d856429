/**
 * Tests get their emulator and client from `test/support/` (see test/README.md): a suite that starts
 * its own drifts from the others' host, token, retry waits and shutdown order.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

// test/api tests the client itself, against servers that misbehave on purpose; this file names
// the calls it looks for.
const owners = ['test/support/', 'test/api/', 'test/repository/test-harness.test.ts'];

it('only test/support/ starts an emulator or makes an API client', () => {
  const others = readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .map((file) => join('test', file))
    .filter((file) => file.endsWith('.ts') && !owners.some((owner) => file.startsWith(owner)))
    .filter((file) => /startEmulator\(|new ApiClient\(/.test(readFileSync(join(root, file), 'utf8')));
  expect(others).toEqual([]);
});
