/**
 * The exit status contract is one table (src/cli/exit-codes.ts): `acctsync --help` prints it and
 * README's "Exit codes" section shows the same rows, so a pipeline author reads what the code does.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { exitStatusMeanings } from '../../src/cli/exit-codes.js';

const root = new URL('../../', import.meta.url);
const run = promisify(execFile);

/** README's "Exit codes" table: each row's status and meaning. */
function readmeRows(): [number, string][] {
  const readme = readFileSync(new URL('README.md', root), 'utf8');
  const section = readme.slice(readme.indexOf('### Exit codes'));
  const rows: [number, string][] = [];
  for (const line of section.split('\n')) {
    const row = /^\| (\d+) +\| (.*?) +\|$/.exec(line);
    if (row !== null) rows.push([Number(row[1]), row[2] as string]);
    else if (rows.length > 0) break;
  }
  return rows;
}

describe('exit codes', () => {
  it("README's table is the code's table, row by row", () => {
    expect(readmeRows()).toEqual(exitStatusMeanings.map(([status, meaning]) => [status, meaning]));
  });

  it('acctsync --help lists every status with its meaning', async () => {
    const { stdout } = await run(process.execPath, [new URL('dist/cli/main.js', root).pathname, '--help']);
    for (const [status, meaning] of exitStatusMeanings) {
      expect(stdout).toContain(`  ${String(status).padEnd(3)} ${meaning.replaceAll('`', '')}`);
    }
  });
});
