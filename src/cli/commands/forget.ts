/**
 * `acctsync forget KEY...`: stop managing objects without touching them, like Terraform's
 * `state rm`. The ownership marker is removed from the live object's metadata (the user's own
 * metadata stays), so no later plan of this scope deletes, updates or replaces it.
 */

import { ConfigError, loadDesiredState } from '../../config/index.js';
import { UsageError, UserError } from '../../errors.js';
import { inert } from '../../inert.js';
import { indexChildren, cascadeOf } from '../../plan/cascade.js';
import { fetchLiveState, type LiveObject } from '../../live/index.js';
import { aTitle, descriptorOf, objectPath } from '../../resources/index.js';
import { defineCommand } from '../command.js';
import { help } from '../help/forget.js';
import { openConnection } from '../connection.js';
import { holdScope, leaseFlagsFrom, withLease } from '../lease-flags.js';

export const command = defineCommand({
  ...help,

  async run(values, keys) {
    if (keys.length === 0) throw new UsageError('forget: name at least one KEY, like ip_policies/office');
    const leaseFlags = leaseFlagsFrom('forget', values);
    const loaded = await loadDesiredState(values.config ?? [], { env: process.env });
    if (!loaded.ok) throw new ConfigError(loaded.diagnostics, { secretSpans: loaded.secretSpans });
    const scope = values.scope ?? loaded.state.scope;
    const stillWanted = keys.filter((k) => loaded.state.objects.some((o) => o.key === k));
    if (stillWanted.length > 0) {
      throw new UserError(`refusing to forget ${stillWanted.join(', ')}: still in the config`, {
        details: ['Remove its block first; otherwise the next sync would create it again.'],
      });
    }
    const opened = await openConnection({ flags: values, env: process.env, deadline: true });
    let connection = opened;
    try {
      const lease = await holdScope(opened, scope, 'forget', leaseFlags);
      connection = withLease(opened, lease);
      const live = await fetchLiveState(connection.client, { scope, objects: [] });
      const index = indexChildren(live.objects);
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
        const d = descriptorOf(l.kind);
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
