/* eslint-disable @typescript-eslint/no-unsafe-member-access -- responses are arbitrary JSON read member by member */
import { describe, expect, it } from 'vitest';
import {
  builtinKinds,
  aTitle,
  countOf,
  nestedObject,
  type BuiltInKindName,
  type Fields,
  type KindName,
} from '../../src/resources/index.js';
import { useEmulator } from './harness.js';

/** Each kind as an English sentence names it: with its article, and two of it. */
const english: Record<BuiltInKindName, readonly [string, string]> = {
  api_keys: ['an API key', '2 API keys'],
  credentials: ['a tunnel credential', '2 tunnel credentials'],
  ssh_credentials: ['an SSH credential', '2 SSH credentials'],
  ip_policies: ['an IP policy', '2 IP policies'],
  ip_policy_rules: ['an IP policy rule', '2 IP policy rules'],
  ip_restrictions: ['an IP restriction', '2 IP restrictions'],
  reserved_addrs: ['a reserved address', '2 reserved addresses'],
  reserved_domains: ['a reserved domain', '2 reserved domains'],
  endpoint_configurations: ['an endpoint configuration', '2 endpoint configurations'],
  http_response_backends: ['an HTTP response backend', '2 HTTP response backends'],
  failover_backends: ['a failover backend', '2 failover backends'],
  tunnel_group_backends: ['a tunnel group backend', '2 tunnel group backends'],
  weighted_backends: ['a weighted backend', '2 weighted backends'],
  tls_edges: ['a TLS edge', '2 TLS edges'],
  https_edges: ['an HTTPS edge', '2 HTTPS edges'],
  https_edge_routes: ['an HTTPS edge route', '2 HTTPS edge routes'],
  agent_ingresses: ['an agent ingress', '2 agent ingresses'],
  certificate_authorities: ['a certificate authority', '2 certificate authorities'],
  tls_certificates: ['a TLS certificate', '2 TLS certificates'],
  event_destinations: ['an event destination', '2 event destinations'],
  event_subscriptions: ['an event subscription', '2 event subscriptions'],
  event_sources: ['an event source', '2 event sources'],
  tunnel_sessions: ['a tunnel session', '2 tunnel sessions'],
};

function englishOf(kind: KindName): readonly [string, string] {
  const names = english[kind as BuiltInKindName];
  if (names === undefined) throw new Error(`no English for ${kind}`);
  return names;
}

describe('kind titles', () => {
  it.each(builtinKinds.all.map((d) => [d.kind, d] as const))(
    '%s is named with its own article and plural',
    (kind, d) => {
      const [one, two] = englishOf(kind);
      expect(aTitle(d)).toBe(one);
      expect(countOf(d, 2)).toBe(two);
      expect(countOf(d, 1)).toBe(one.replace(/^an? /, '1 '));
    },
  );
});

/** A reference member of a create body: where it sits and the kinds it may name. */
interface ReferenceSite {
  readonly kind: KindName;
  readonly path: string;
  /** The body holding `value` at the site. */
  readonly body: (value: string) => Record<string, unknown>;
  readonly targets: readonly KindName[];
}

/** Reference members a create body may carry, top-level and inside objects and modules. */
function referenceSites(
  kind: KindName,
  fields: Fields,
  wrap: (inner: Record<string, unknown>) => Record<string, unknown>,
  topLevel: boolean,
): ReferenceSite[] {
  return Object.entries(fields).flatMap(([name, f]): ReferenceSite[] => {
    if (f.write === 'read-only' || (topLevel && f.write === 'update-only')) return [];
    const key = f.writeAs ?? name;
    const type = f.type;
    if (type.type === 'ref') {
      return [
        {
          kind,
          path: key,
          body: (value) => wrap({ [key]: type.many ? [value] : value }),
          targets: type.target.kinds,
        },
      ];
    }
    const nested = nestedObject(type);
    if (nested === undefined) return [];
    return referenceSites(kind, nested.fields, (inner) => wrap({ [key]: inner }), false);
  });
}

const sites = builtinKinds.all
  .filter((d) => d.operations.create && d.idPrefix !== undefined)
  .flatMap((d) => referenceSites(d.kind, d.fields, (inner) => inner, true).map((s) => ({ ...s, d })));

describe('messages naming a kind, as the emulator answers them', () => {
  const h = useEmulator();

  it.each(sites.map((s) => [`${s.kind} ${s.path}`, s] as const))(
    'a wrong id in %s is "not the id of" the kinds it references, in English',
    async (_, site) => {
      const path = site.d.path.replace(/\{\w+\}/g, 'zz_parent');
      const answer = await h.call('POST', path, site.body('zz_nothing'));
      expect(answer.status).toBe(400);
      const expected = `zz_nothing is not the id of ${site.targets.map((k) => englishOf(k)[0]).join(' or ')}`;
      const messages = (answer.body.details.problems as Array<{ msg: string }>).map((p) => p.msg);
      expect(messages).toContain(expected);
    },
  );
});
