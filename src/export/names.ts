/**
 * Logical names for exported objects: read from what a person recognises the object by (its
 * description, domain, hostports, CIDR, certificate subject, SSH key comment), slugified, and made
 * unique within their config map in id order, so the same account always exports the same names.
 */
import type { Field, FormatName, KindDescriptor } from '../resources/index.js';
import type { LiveRecord } from './fetch.js';

/** Longest name produced; the config allows 128, but names are typed and read in reviews. */
const maxLength = 60;

/**
 * Lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit (the config's name
 * pattern). Text is NFKD-folded first so accented letters keep their base letter (`Büro Köln` →
 * `buro-koln`) instead of becoming separators.
 */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\*/g, 'wildcard')
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, maxLength)
    .replace(/[-._]+$/, '');
  return slug;
}

/** The comment of an OpenSSH public key line (`ssh-ed25519 AAAA... alice@laptop` → `alice@laptop`). */
function sshKeyComment(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const comment = value.trim().split(/\s+/).slice(2).join(' ');
  return comment === '' ? undefined : comment;
}

/** How a value of each identifying format reads as a name; PEMs read as their subject common name. */
const byFormat: Partial<Record<FormatName, (value: unknown, record: LiveRecord) => unknown>> = {
  hostname: (v) => v,
  domain: (v) => v,
  cidr: (v) => v,
  hostport: (v) => v,
  'ssh-public-key': sshKeyComment,
  'pem-certificate': (_v, r) => r.subject_common_name,
  'pem-certificate-chain': (_v, r) => r.subject_common_name,
};

function formatOf(f: Field): FormatName | undefined {
  const type = f.type.type === 'list' ? f.type.items : f.type;
  return type.type === 'string' ? type.format : undefined;
}

/**
 * For an object of alternatives (an event destination's `target`: exactly one member set, enforced by
 * its rules), the member that is set: a destination reads as `monitoring` or `log_group`.
 */
function chosenMember(f: Field, value: unknown): string | undefined {
  if (f.type.type !== 'object' || (f.type.rules ?? []).length === 0) return undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  return Object.entries(value).find(([, v]) => v !== null && v !== undefined)?.[0];
}

/** Candidate names of a record, best first; the kind's own name last so there always is one. */
export function nameCandidates(d: KindDescriptor, record: LiveRecord): string[] {
  const texts: unknown[] = [record.description];
  for (const [name, f] of Object.entries(d.fields)) {
    const format = formatOf(f);
    const read = format === undefined ? undefined : byFormat[format];
    if (read === undefined) continue;
    const value = record[name];
    texts.push(read(Array.isArray(value) ? value[0] : value, record));
  }
  texts.push(...Object.entries(d.fields).map(([name, f]) => chosenMember(f, record[name])));
  texts.push(d.config?.variant ?? d.title);
  return texts.flatMap((t) => (typeof t === 'string' ? [slugify(t)] : [])).filter((s) => s !== '');
}

/** Hands out names unique within one config map; a taken name gets `-2`, `-3`, ... */
export class NameAllocator {
  readonly #taken = new Set<string>();

  /** Claims a name outright (a name already recorded in an ownership marker). Returns false when taken. */
  reserve(name: string): boolean {
    if (this.#taken.has(name)) return false;
    this.#taken.add(name);
    return true;
  }

  /** The first free candidate, or the first candidate with the smallest free suffix. */
  allocate(candidates: readonly string[]): string {
    const free = candidates.find((c) => !this.#taken.has(c));
    if (free !== undefined) {
      this.#taken.add(free);
      return free;
    }
    const base = candidates[0] ?? 'object';
    for (let n = 2; ; n++) {
      const name = `${base.slice(0, maxLength - String(n).length - 1)}-${n}`;
      if (!this.#taken.has(name)) {
        this.#taken.add(name);
        return name;
      }
    }
  }
}
