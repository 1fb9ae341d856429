import { isHostname, isWildcardHostname, parseHostport } from './hostname.js';
import { preview } from './preview.js';
import { fail, ok, type Result } from './result.js';

/** Stands for "any key" or "any value" in a label rule, and for "everything" as a whole rule. */
export const WILDCARD = '*';

/** One parsed rule of an SSH credential's `acl`. */
export type SshAclRule =
  /** `*`: the same as no ACL, everything is permitted. */
  | { readonly kind: 'any' }
  /** `bind:api.example.com` */
  | { readonly kind: 'domain'; readonly domain: string }
  /** `bind:*.example.com`: any domain ending in `.example.com`; `suffix` is `example.com`. */
  | { readonly kind: 'domain-suffix'; readonly suffix: string }
  /** `bind:1.tcp.example.com:20001` */
  | { readonly kind: 'address'; readonly host: string; readonly port: number }
  /** `bind:env=prod`; `key` or `value` is {@link WILDCARD} when the rule matches any. */
  | { readonly kind: 'label'; readonly key: string; readonly value: string };

const BIND_PREFIX = 'bind:';

/**
 * Parses one SSH ACL rule. Allowed: `*`, `bind:<domain>`, `bind:*.<suffix>`, `bind:<host>:<port>`
 * and `bind:<key>=<value>` where the key and/or the value may be `*`.
 */
export function parseSshAclRule(s: string): Result<SshAclRule> {
  if (s === WILDCARD) return ok({ kind: 'any' });
  if (/[\s\p{Cc}]/u.test(s)) return fail(`rule "${preview(s)}" contains whitespace or control characters`);
  if (!s.startsWith(BIND_PREFIX)) return fail(`rule "${preview(s)}": only bind: rules (or *) are allowed`);

  const target = s.slice(BIND_PREFIX.length);
  if (target === '') return fail('empty bind target (write e.g. bind:api.example.com)');
  if (target === WILDCARD) return fail('bind:* is not a rule: use * alone to allow everything');
  if (target.includes('=')) return parseLabelRule(target);
  if (target.includes(':')) {
    const address = parseHostport(target);
    return address.ok ? ok({ kind: 'address', ...address.value }) : fail(`bind address: ${address.reason}`);
  }
  if (isWildcardHostname(target)) return ok({ kind: 'domain-suffix', suffix: target.slice(2) });
  if (target.includes(WILDCARD)) {
    return fail(`"${preview(target)}": a wildcard may only be the whole first label, as in *.example.com`);
  }
  if (isHostname(target)) return ok({ kind: 'domain', domain: target });
  return fail(`bind target "${preview(target)}" is not a domain, host:port address or key=value label`);
}

function parseLabelRule(target: string): Result<SshAclRule> {
  const [key = '', value = '', ...rest] = target.split('=');
  if (rest.length > 0) return fail(`label rule "${preview(target)}" has more than one =`);
  if (key === '' || value === '') return fail(`label rule "${preview(target)}" needs both a key and a value`);
  for (const part of [key, value]) {
    if (part !== WILDCARD && part.includes(WILDCARD)) {
      return fail(`label rule "${preview(target)}": * must stand for the whole key or the whole value`);
    }
  }
  return ok({ kind: 'label', key, value });
}
