/** `acctsync export`: write the live account as desired-state YAML, to stdout, a file or a directory. */
import { counted } from '../../count.js';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configScope, schemaFileUrl } from '../../config/index.js';
import { UsageError, isSystemError, systemUserError } from '../../errors.js';
import { exportAccount, renderExport, type AccountExport, type OutputFile } from '../../export/index.js';
import { inertLines } from '../../inert.js';
import { defineCommand } from '../command.js';
import { help } from '../help/export.js';
import { openAccount } from '../account.js';
import { environmentName } from '../environment.js';
import { exportEnvironment } from '../export-environment.js';
import { refuseForeign } from '../export-target.js';
import { variableLines } from '../export-variables.js';

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
async function writeDirectory(
  dir: string,
  files: readonly OutputFile[],
  exp: AccountExport,
  force: boolean,
): Promise<void> {
  const written = new Set(files.map((f) => f.name));
  const stale = exp.maps.map((m) => `${m.key}.yaml`).filter((name) => !written.has(name));
  await refuseForeign(
    [...files.map((f) => join(dir, f.name)), ...stale.map((name) => join(dir, name))],
    force,
  );
  await mkdir(dir, { recursive: true });
  for (const file of files) await writeFile(join(dir, file.name), file.text);
  for (const name of stale) await rm(join(dir, name), { force: true });
}

/** The installed schema file, relative to the directory the YAML is written to. */
function schemaReference(dir: string): string {
  return relative(dir, fileURLToPath(schemaFileUrl)).split(sep).join('/');
}

/** Writes the export to `out`, a file or a directory; returns where it went, for the summary. */
async function writeExport(out: string, exp: AccountExport, force: boolean): Promise<string> {
  try {
    if (await isFilePath(out)) {
      const [file] = renderExport(exp, false, schemaReference(dirname(resolve(out))));
      await refuseForeign([out], force);
      await writeFile(out, file?.text ?? '');
      return out;
    }
    await writeDirectory(out, renderExport(exp, true, schemaReference(resolve(out))), exp, force);
    return `${out.replace(/\/+$/, '')}/`;
  } catch (err) {
    throw isSystemError(err) ? systemUserError(`write the export to ${out}`, err) : err;
  }
}

/**
 * The scope of the config the export belongs to: the one at PATH, else the one already in the
 * output directory or file, else the default config's. Re-exporting never changes a config's scope.
 */
async function scopeOfConfig(paths: readonly string[], out: string | undefined): Promise<string | undefined> {
  if (paths.length > 0) return configScope(paths);
  if (out !== undefined) {
    const there = await configScope([out]).catch(() => undefined);
    if (there !== undefined) return there;
  }
  return configScope([]).catch(() => undefined);
}

function summary(exp: AccountExport, where: string): string {
  const objects = exp.maps.reduce((n, m) => n + m.entries.length, 0);
  const lines = [`acctsync: exported ${counted(objects, 'object', 'objects')} to ${where}`];
  lines.push(...variableLines(exp.placeholders.map((p) => p.variable)));
  if (exp.otherScopes.length > 0)
    lines.push(
      `acctsync: left out ${counted(exp.otherScopes.length, 'object', 'objects')} managed by another scope`,
    );
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
      return exportEnvironment({
        paths: positionals,
        environment,
        flags: values,
        out: values.out,
        force: values.force,
        moveIds: values['move-ids'],
      });
    }
    if (values['move-ids'])
      throw new UsageError('export --move-ids goes with --env NAME: ids move to that environment');
    const scope = values.scope ?? (await scopeOfConfig(positionals, values.out)) ?? 'default';
    const { connection } = await openAccount('export', values, positionals);
    let exp: AccountExport;
    try {
      exp = await exportAccount({
        client: connection.client,
        scope,
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
      process.stderr.write(`${inertLines(summary(exp, await writeExport(out, exp, values.force)))}\n`);
    }
    return 0;
  },
});
