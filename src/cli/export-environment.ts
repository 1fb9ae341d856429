/**
 * `acctsync export CONFIG --env NAME`: reads the environment's account and rewrites the
 * environment's overlay file with what that account has that differs from the base, so a hand
 * change in one account comes back into the repository as that environment's overlay.
 */
import { counted } from '../count.js';
import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { environmentBase, loadConfig, pinMember } from '../config/index.js';
import type { DesiredObject } from '../resources/index.js';
import { UsageError, UserError } from '../errors.js';
import { inert, inertLines } from '../inert.js';
import {
  exportAccount,
  overlayDiff,
  removeBaseIds,
  renderOverlay,
  type AccountExport,
  type OverlayExport,
} from '../export/index.js';
import { printConfigWarnings } from './config-report.js';
import { openConnection, type ConnectionFlags } from './connection.js';
import { variableLines } from './export-variables.js';
import { refuseForeign } from './export-target.js';
import { whoseId } from '../whose-id.js';

interface ExportEnvironmentRequest {
  readonly paths: readonly string[];
  readonly environment: string;
  readonly flags: ConnectionFlags;
  /** Where to write the overlay; the environment's one overlay file when absent. */
  readonly out?: string | undefined;
  /** Replace an overlay file no export wrote. */
  readonly force: boolean;
  /** Remove from the base files the ids the written overlay carries. */
  readonly moveIds: boolean;
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
  if (overlay.pinned.length > 0)
    lines.push(
      `acctsync: ${counted(overlay.pinned.length, 'object not taken over yet keeps its', 'objects not taken over yet keep their')} id: in the overlay (sync --env ${environment} --adopt takes them over)`,
    );
  if (overlay.unmanaged > 0)
    lines.push(
      `acctsync: left out ${counted(overlay.unmanaged, 'object', 'objects')} this scope does not manage (acctsync export writes them for adoption)`,
    );
  return lines.join('\n');
}

/**
 * The config's top-level entries pinned by id, by that id: no marker names an observed object or
 * one not taken over yet, and the overlay must use the config's name for it (a reference to an
 * observed object would not load otherwise, a pinned base entry would read as dropped).
 */
function pinnedNames(objects: readonly DesiredObject[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of objects) if (o.parentKey === undefined && o.pin !== undefined) out.set(o.pin, o.name);
  return out;
}

/** The config's top-level `id:`s of entries it manages (not observed), by entry key. */
function managedPins(objects: readonly DesiredObject[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of objects)
    if (o.observe !== true && o.parentKey === undefined && o.pin !== undefined) out.set(o.key, o.pin);
  return out;
}

/**
 * Pins of the config this account has no object for: most likely another environment's ids in the
 * base. Written as they are, the overlay would drop those entries; the export stops instead.
 */
function foreignPins(
  pins: ReadonlyMap<string, string>,
  live: AccountExport,
  environment: string,
  others: readonly string[],
): void {
  const ids = new Set(live.maps.flatMap((m) => m.entries.map((e) => e.values[pinMember])));
  const missing = [...pins].filter(([, id]) => !ids.has(id));
  if (missing.length === 0) return;
  throw new UserError(
    `export --env ${environment}: the config pins ids ${environment}'s account does not have`,
    {
      details: [
        ...missing.map(
          ([key, id]) =>
            `${key}: no object with id ${id} in ${environment}'s account (or another scope manages it): it may be ${whoseId(others)}`,
        ),
        'Ids are per account: keep each in the overlay of the environment whose account has it (export --env THAT --move-ids moves them there), or remove it. Nothing was written.',
      ],
    },
  );
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
      `export --env ${environment}: the environment's overlay is ${files.length === 0 ? 'no file' : `${files.length} files (${files.map(inert).join(', ')})`}; name the one file to write with --out`,
      { details: ['The written file is the whole overlay: keep it the only file of the environment.'] },
    );
  }
  await refuseForeign([out], request.force);
  const connection = await openConnection({
    flags: request.flags,
    env: process.env,
    deadline: true,
    accountCommand: 'export',
    ...(config.environment === undefined ? {} : { environment: config.environment }),
  });
  let overlay: OverlayExport;
  const pins = managedPins(config.desired.objects);
  try {
    const live = await exportAccount({
      client: connection.client,
      scope: config.desired.scope,
      knownNames: pinnedNames(config.desired.objects),
    });
    foreignPins(pins, live, environment, base.others);
    overlay = overlayDiff(base.entries, live, { pins, observed: base.observed });
    if (base.entries.size > 0 && overlay.described === 0) {
      throw new UserError(
        `export --env ${environment}: the account has no object scope ${config.desired.scope} manages or the config pins by id, so its overlay would drop the whole base`,
        {
          details: [
            `Sync it first (acctsync sync${paths.map((p) => ` ${p}`).join('')} --env ${environment}), or take it over with acctsync export and sync --adopt.`,
          ],
        },
      );
    }
  } finally {
    await connection.close();
  }
  await writeFile(out, renderOverlay(overlay, environment));
  process.stderr.write(`${inertLines(summary(overlay, environment, out))}\n`);
  if (request.moveIds) {
    // Every pin is this account's (foreignPins): those not taken over yet are in the overlay now.
    const changed = await removeBaseIds(
      base.baseFiles.map((f) => f.absolute),
      [...pins.keys()],
    );
    const names = changed.map((f) => relative(process.cwd(), f));
    process.stderr.write(
      `${inertLines(`acctsync: took the ids out of ${names.length === 0 ? 'no base file (it has none)' : names.join(', ')}`)}\n`,
    );
  }
  return 0;
}
