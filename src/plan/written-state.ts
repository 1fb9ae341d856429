/**
 * What the ownership marker's `written` fingerprint is of, and what it tells: an object's state as
 * acctsync writes it (the planner's normal forms, references as the config's keys so an id the
 * service assigns later does not change it, fields owned elsewhere left out), and so whether an
 * operation carries a change of the config, drift made outside acctsync, or both.
 */
import {
  canonicalJson,
  canonicalValues,
  mapReferences,
  filledWhileSet,
  withoutPaths,
  writtenFingerprint,
  type DesiredObject,
  type KindRegistry,
} from '../resources/index.js';
import { normalizeDesired, normalizeLive, type ResolveRef } from './normalize.js';
import type { Paired } from './match.js';
import type { ChangeCause } from '../plan-format/index.js';

type Plain = Record<string, unknown>;

/** References left as the config writes them: a key, or the raw id of an object it does not manage. */
const asConfigured: ResolveRef = (ref) => ref;

function fingerprintOf(o: DesiredObject, values: Plain): string {
  return writtenFingerprint(canonicalJson(withoutPaths(values, o.ignore ?? [])));
}

export class WrittenStates {
  /** The desired key each paired live object stands for: live references read back as keys. */
  readonly #keyOf: ReadonlyMap<string, string>;
  readonly #kinds: KindRegistry;

  constructor(paired: readonly Paired[], kinds: KindRegistry) {
    this.#kinds = kinds;
    this.#keyOf = new Map(paired.map((m) => [m.live.id, m.desired.key]));
  }

  /** The fingerprint of `o` as the plan writes it. */
  desired(o: DesiredObject): string {
    const d = this.#kinds.descriptorOf(o.kind);
    return fingerprintOf(o, normalizeDesired(d, o, asConfigured));
  }

  /**
   * The fingerprint of the live object, in the shape `desired` gives for its entry, less what the
   * service fills in on it: the state last written left that to the service, whatever the config
   * asks now, so the service filling it in (or not yet) is not drift.
   */
  #live(m: Paired): string {
    const d = this.#kinds.descriptorOf(m.desired.kind);
    const asKeys = mapReferences(
      d.fields,
      normalizeLive(d, m.live, m.desired),
      (id) => this.#keyOf.get(id) ?? id,
    );
    for (const name of Object.keys(asKeys))
      if (filledWhileSet(d.fields[name], m.live.record)) delete asKeys[name];
    return fingerprintOf(m.desired, canonicalValues(d.fields, asKeys));
  }

  /**
   * Why the paired object is written: the live object no longer holds what was last written
   * (drift), the config no longer asks for it (config), or both. What neither explains (a secret,
   * protection, the marker itself) is the config's. A marker written before acctsync kept the
   * fingerprint cannot tell: the config's change.
   */
  causeOf(m: Paired): ChangeCause {
    const written = m.live.marker?.written;
    if (written === undefined) return 'config';
    const drifted = this.#live(m) !== written;
    if (!drifted) return 'config';
    return this.desired(m.desired) === written ? 'drift' : 'both';
  }
}
