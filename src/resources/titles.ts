/** Kinds named in messages, from their descriptors' own singular, plural and article. */
import { counted } from '../count.js';
import { builtinKinds, type KindRegistry } from './registry.js';
import type { KindDescriptor, KindName } from './types.js';

/** "an IP policy". */
export function aTitle(d: Pick<KindDescriptor, 'title' | 'article'>): string {
  return `${d.article} ${d.title}`;
}

/** "An IP policy", to start a sentence. */
export function aTitleAtStart(d: Pick<KindDescriptor, 'title' | 'article'>): string {
  const text = aTitle(d);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "an HTTPS edge or a TLS edge": any one of the kinds, as `registry` describes them. */
export function anyOf(kinds: readonly KindName[], registry: KindRegistry = builtinKinds): string {
  return kinds.map((k) => aTitle(registry.descriptorOf(k))).join(' or ');
}

/** "1 IP policy", "2 IP policies". */
export function countOf(d: Pick<KindDescriptor, 'title' | 'titlePlural'>, n: number): string {
  return counted(n, d.title, d.titlePlural);
}
