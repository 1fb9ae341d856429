/**
 * `acctsync export CONFIG --env NAME`: reads the environment's account and rewrites the
 * environment's overlay file with what that account has that differs from the base, so a hand
 * change in one account comes back into the repository as that environment's overlay.
 */
import { writeFile } from 'node:fs/promises';
import { environmentBase, loadConfig } from '../config/index.js';
import type { DesiredObject } from '../resources/index.js';
import { UsageError, UserError } from '../errors.js';
import { inertLines } from '../inert.js';
import { exportAccount, overlayDiff, renderOverlay, type OverlayExport } from '../export/index.js';
import { printConfigWarnings } from './config-report.js';
import { openConnection, type ConnectionFlags } from './connection.js';
import { variableLines } from './export-variables.js';

interface ExportEnvironmentRequest {
  readonly paths: readonly string[];
  readonly environment: string;
  readonly flags: ConnectionFlags;
  /** Where to write the overlay; the environment's one overlay file when absent. */
  readonly out?: string | undefined;
}

function count(sections: Readonly<Record<string, Readonly<Record<string, unknown>> | readonly string[]>>) {
  return Object.values(sections).reduce(
    (n, s) => n + (Array.isArray(s) ? s.length : Object.keys(s).length),
    0,
  );
}

function summary(overlay: OverlayExport, environment: string, where: string): string {
  const lines = [
    `acctsync: wrote the overlay of ${environment} to ${where}: ${count(overlay.patch)} patched, ${count(overlay.drop)} dropped, ${count(overlay.additions)} added`,
  ];
  lines.push(...variableLines(overlay.placeholders.map((p) => p.variable)));
  if (overlay.unmanaged > 0)
    lines.push(
      `acctsync: left out ${overlay.unmanaged} object(s) this scope does not manage (acctsync export writes them for adoption)`,
    );
  return lines.join('\n');
}

/**
 * The config's observed entries pinned by id, by that id: no marker names what they read, and an
 * entry of the overlay referring to one must use the config's name for it, or it would not load.
 */
function observedNames(objects: readonly DesiredObject[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of objects)
    if (o.observe === true && o.parentKey === undefined && o.pin !== undefined) out.set(o.pin, o.name);
  return out;
}

export async function exportEnvironment(request: ExportEnvironmentRequest): Promise<number> {
  const { paths, environment } = request;
  const config = await loadConfig({ paths, env: process.env, environment });
  printConfigWarnings(config.warnings, config.secretSpans, process.env);
  const base = await environmentBase(paths, environment);
  if (base.extends !== undefined) {
    throw new UserError(
      `export --env ${environment}: ${environment} extends ${base.extends}, and export --env writes only an environment that extends none`,
      { details: ['Write its overlay by hand, or export into an environment that extends no other.'] },
    );
  }
  const files = base.overlayFiles.map((f) => f.file);
  const out = request.out ?? (files.length === 1 ? files[0] : undefined);
  if (out === undefined) {
    throw new UsageError(
      `export --env ${environment}: the environment's overlay is ${files.length === 0 ? 'no file' : `${files.length} files (${files.join(', ')})`}; name the one file to write with --out`,
      { details: ['The written file is the whole overlay: keep it the only file of the environment.'] },
    );
  }
  const connection = await openConnection({
    flags: request.flags,
    env: process.env,
    deadline: true,
    accountCommand: 'export',
    ...(config.environment === undefined ? {} : { environment: config.environment }),
  });
  let overlay: OverlayExport;
  try {
    const live = await exportAccount({
      client: connection.client,
      scope: config.desired.scope,
      knownNames: observedNames(config.desired.objects),
    });
    if (base.entries.size > 0 && !live.maps.some((m) => m.entries.some((e) => e.managed))) {
      throw new UserError(
        `export --env ${environment}: the account has no object scope ${config.desired.scope} manages, so its overlay would drop the whole base`,
        {
          details: [
            `Sync it first (acctsync sync${paths.map((p) => ` ${p}`).join('')} --env ${environment}), or take it over with acctsync export and sync --adopt.`,
          ],
        },
      );
    }
    overlay = overlayDiff(base.entries, live);
  } finally {
    await connection.close();
  }
  await writeFile(out, renderOverlay(overlay, environment));
  process.stderr.write(`${inertLines(summary(overlay, environment, out))}\n`);
  return 0;
}
