/** `acctsync export`: write the live account as desired-state YAML, to stdout, a file or a directory. */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaFileUrl } from '../../config/schema.js';
import { isSystemError, systemUserError } from '../../errors.js';
import { exportAccount, renderExport, type AccountExport, type OutputFile } from '../../export/index.js';
import { UsageError } from '../../errors.js';
import { inertLines } from '../../inert.js';
import { defineCommand } from '../command.js';
import { help } from '../help/export.js';
import { openConnection } from '../connection.js';
import { environmentName } from '../environment.js';
import { exportEnvironment } from '../export-environment.js';

/** A path names a single file when it ends in .yaml/.yml or is an existing file; otherwise a directory. */
async function isFilePath(path: string): Promise<boolean> {
  if (/\.ya?ml$/i.test(path)) return true;
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Writes the split files and removes the file of every exported kind that is now empty, so a
 * re-export into the same directory never leaves behind objects the account no longer has.
 */
async function writeDirectory(dir: string, files: readonly OutputFile[], exp: AccountExport): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const file of files) await writeFile(join(dir, file.name), file.text);
  const written = new Set(files.map((f) => f.name));
  for (const map of exp.maps) {
    const name = `${map.key}.yaml`;
    if (!written.has(name)) await rm(join(dir, name), { force: true });
  }
}

/** The installed schema file, relative to the directory the YAML is written to. */
function schemaReference(dir: string): string {
  return relative(dir, fileURLToPath(schemaFileUrl)).split(sep).join('/');
}

/** Writes the export to `out`, a file or a directory; returns where it went, for the summary. */
async function writeExport(out: string, exp: AccountExport): Promise<string> {
  try {
    if (await isFilePath(out)) {
      const [file] = renderExport(exp, false, schemaReference(dirname(resolve(out))));
      await writeFile(out, file?.text ?? '');
      return out;
    }
    await writeDirectory(out, renderExport(exp, true, schemaReference(resolve(out))), exp);
    return `${out}/`;
  } catch (err) {
    throw isSystemError(err) ? systemUserError(`write the export to ${out}`, err) : err;
  }
}

function summary(exp: AccountExport, where: string): string {
  const objects = exp.maps.reduce((n, m) => n + m.entries.length, 0);
  const lines = [`acctsync: exported ${objects} object(s) to ${where}`];
  const variables = [...new Set(exp.placeholders.map((p) => p.variable))];
  if (variables.length > 0)
    lines.push(
      `acctsync: set ${variables.length} secret variable(s) before a sync (listed at the top of the YAML)`,
    );
  if (exp.otherScopes.length > 0)
    lines.push(`acctsync: left out ${exp.otherScopes.length} object(s) managed by another scope`);
  lines.push(...exp.warnings.map((w) => `acctsync: warning: ${w}`));
  return lines.join('\n');
}

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
    const environment = environmentName(values, process.env);
    if (environment !== undefined) {
      if (values.kind !== undefined || values.scope !== undefined) {
        throw new UsageError(
          'export --env writes the whole overlay of the scope the config gives the environment: leave out --kind and --scope',
        );
      }
      return exportEnvironment({ paths: positionals, environment, flags: values, out: values.out });
    }
    if (positionals.length > 0) {
      throw new UsageError(`export: a config path (${positionals[0]}) goes with --env NAME`, {
        details: ['Plain export reads the account only: write where with --out.'],
      });
    }
    const connection = await openConnection({ flags: values, env: process.env, deadline: true });
    let exp: AccountExport;
    try {
      exp = await exportAccount({
        client: connection.client,
        scope: values.scope ?? 'default',
        maps: values.kind ?? [],
      });
    } finally {
      await connection.close();
    }
    const out = values.out;
    if (out === undefined) {
      process.stdout.write(
        renderExport(exp, false, schemaReference(process.cwd()))
          .map((f) => f.text)
          .join(''),
      );
      process.stderr.write(`${inertLines(summary(exp, 'stdout'))}\n`);
    } else {
      process.stderr.write(`${inertLines(summary(exp, await writeExport(out, exp)))}\n`);
    }
    return 0;
  },
});
