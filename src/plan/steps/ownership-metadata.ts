/**
 * The `metadata` each operation writes: the user's metadata with this scope's ownership marker.
 * Values over the service's limit are collected across the plan so one error names them all.
 */
import { UserError } from '../../errors.js';
import {
  descriptorOf,
  markedMetadata,
  type DesiredObject,
  type MarkedMetadata,
  type OwnershipMarker,
  type SecretHasher,
} from '../../resources/index.js';
import type { WrittenStates } from '../written-state.js';

export class MetadataWriter {
  readonly #scope: string;
  readonly #hash: SecretHasher;
  readonly #saltInput: () => string;
  readonly #written: WrittenStates;
  readonly #tooLong: string[] = [];

  /**
   * `saltInput`: what a new object's salt is derived from besides scope and key (the live
   * fingerprint); `written`: the fingerprints of the states the plan writes.
   */
  constructor(scope: string, hash: SecretHasher, saltInput: () => string, written: WrittenStates) {
    this.#scope = scope;
    this.#hash = hash;
    this.#saltInput = saltInput;
    this.#written = written;
  }

  /**
   * The metadata to write; `upgrade` rehashes every secret and fingerprints the state written,
   * else matching stored hashes and the live fingerprint are kept (the object is not written).
   */
  marked(o: DesiredObject, liveMarker: OwnershipMarker | undefined, upgrade: boolean): MarkedMetadata {
    return markedMetadata(descriptorOf(o.kind), o.key, o.fields, this.#scope, {
      salt: liveMarker?.salt,
      saltInput: this.#saltInput,
      // Protection is sticky: only an explicit `protect: false` lifts it.
      protect: o.protect ?? liveMarker?.protect === true,
      hash: this.#hash,
      kept: upgrade ? undefined : liveMarker?.hashes,
      written: upgrade ? this.#written.desired(o) : liveMarker?.written,
    });
  }

  /** The metadata an operation writes, its excess over the limit noted for `refuseTooLong`. */
  final(o: DesiredObject, liveMarker: OwnershipMarker | undefined, upgrade = true): string {
    return this.noted(o, this.marked(o, liveMarker, upgrade));
  }

  /** `marked`'s value (from `marked` for `o`) as the final one, its excess noted as `final` does. */
  noted(o: DesiredObject, { value, tooLong }: MarkedMetadata): string {
    if (tooLong !== undefined) this.#tooLong.push(`${o.key}: ${tooLong}`);
    return value;
  }

  /** @throws {UserError} naming every final metadata value over its limit */
  refuseTooLong(): void {
    if (this.#tooLong.length === 0) return;
    throw new UserError('metadata too long once the ownership marker is added', { details: this.#tooLong });
  }
}
