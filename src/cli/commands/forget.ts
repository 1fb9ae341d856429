/**
 * `acctsync forget KEY...`: stop managing objects without touching them, like Terraform's
 * `state rm`. The ownership marker is removed from the live object's metadata (the user's own
 * metadata stays), so no later plan of this scope deletes, updates or replaces it.
 */

import { existsSync } from 'node:fs';
import { configLayout, loadConfig } from '../../config/index.js';
import { UsageError, UserError } from '../../errors.js';
import { inert } from '../../inert.js';
import { cascadeOf, indexChildren } from '../../plan/index.js';
import { fetchLiveState, type LiveObject } from '../../live/index.js';
import { aTitle, builtinKinds, objectPath } from '../../resources/index.js';
import { defineCommand } from '../command.js';
import { help } from '../help/forget.js';
import { openConnection } from '../connection.js';
import { environmentName } from '../environment.js';
import { printConfigWarnings } from '../config-report.js';
import { holdScope, leaseFlagsFrom, withLease } from '../lease-flags.js';

const maps = new Set(configLayout.map((m) => m.key));

/** `ip_policies/office`, and no file or directory of that name: a key, not a config path. */
function isKey(argument: string): boolean {
  const [map, ...name] = argument.split('/');
  return map !== undefined && maps.has(map) && name.join('/') !== '' && !existsSync(argument);
}

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
    // The config's kinds: the loader knows the built-in ones alone.
    const kinds = builtinKinds;
    const keys = positionals.filter(isKey);
    const paths = positionals.filter((p) => !isKey(p));
    if (keys.length === 0) throw new UsageError('forget: name at least one KEY, like ip_policies/office');
    const leaseFlags = leaseFlagsFrom('forget', values);
    const environment = environmentName(values, process.env);
    const config = await loadConfig({
      paths,
      env: process.env,
      ...(environment === undefined ? {} : { environment }),
    });
    printConfigWarnings(config.warnings, config.secretSpans, process.env);
    const scope = values.scope ?? config.desired.scope;
    // An observed entry's object is not managed: letting go of it is what `forget` is for.
    const stillWanted = keys.filter((k) =>
      config.desired.objects.some((o) => o.key === k && o.observe !== true),
    );
    if (stillWanted.length > 0) {
      throw new UserError(`refusing to forget ${stillWanted.join(', ')}: still in the config`, {
        details: ['Remove its block first; otherwise the next sync would create it again.'],
      });
    }
    const opened = await openConnection({
      flags: values,
      env: process.env,
      deadline: true,
      accountCommand: 'forget',
      ...(config.environment === undefined ? {} : { environment: config.environment }),
    });
    let connection = opened;
    try {
      const lease = await holdScope(opened, scope, 'forget', leaseFlags, {
        paths,
        environment: config.environment?.name,
      });
      connection = withLease(opened, lease);
      const live = await fetchLiveState(connection.client, { scope, objects: [] }, { registry: kinds });
      const index = indexChildren(live.objects, kinds);
      const byId = new Map(live.objects.map((l) => [l.id, l]));
      const targets: LiveObject[] = [];
      for (const key of keys) {
        const found = live.objects.filter((l) => l.marker?.scope === scope && l.marker.key === key);
        if (found.length === 0) throw new UserError(`no object in scope '${scope}' is managed as ${key}`);
        for (const l of found) {
          targets.push(l);
          // Marked children would otherwise be deleted as having left the config.
          for (const c of cascadeOf(l, index).objects) {
            const child = byId.get(c.id);
            if (child?.marker?.scope === scope) targets.push(child);
          }
        }
      }
      for (const l of targets) {
        const d = kinds.descriptorOf(l.kind);
        if (!d.operations.update)
          throw new UserError(`${l.marker?.key ?? l.id}: ${aTitle(d)} cannot be changed`);
        const parentId = d.parent?.via === 'path' ? l.parentId : undefined;
        await connection.client.patch(
          objectPath(d, l.id, parentId),
          { metadata: l.userMetadata },
          lease === undefined ? {} : { beforeSend: () => lease.check() },
        );
        process.stdout.write(
          `forgot ${inert(l.marker?.key ?? l.id)} (${inert(l.id)}): no longer managed, left as it is\n`,
        );
      }
      return 0;
    } finally {
      await connection.close();
    }
  },
});
