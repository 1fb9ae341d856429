/**
 * What the emulator does for one kind (or module) beyond what its descriptor says, keyed by its
 * name: the generic CRUD, routes and rendering look here and nowhere else for a special case. A
 * kind without an entry gets plain CRUD from its descriptor; behaviour keyed by data (a field's
 * presence or format, a parent link, a token field) lives with the generic code instead. The
 * service's own processes still name the kinds they work on (the TLS certificates it issues, the
 * subscriptions it delivers events to, the bootstrap API key).
 */
import { samlModule, type KindDescriptor, type KindName, type ModuleDescriptor } from '../resources/index.js';
import type { Decoration } from './account.js';
import type { DeriveContext } from './derive-context.js';
import { subscriptionSources, tunnelGroupTunnels } from './decorators.js';
import { eventSourceRoutes } from './event-sources.js';
import {
  assignDomainTargets,
  assignIngressTargets,
  assignTcpAddress,
  deriveSamlMembers,
  lowerCaseHeaderNames,
} from './kind-derivers.js';
import type { SessionTransport } from './model.js';
import type { Route } from './router.js';
import { sessionCommandRoutes } from './sessions.js';

interface KindBehaviour {
  /** Members the service computes on a write, after those every kind shares (`derive.ts`). */
  readonly derive?: (values: Record<string, unknown>, ctx: DeriveContext) => void;
  /** Members its responses compute at read time. */
  readonly decorate?: Decoration;
  /**
   * Endpoints of its own, after the standard operations; a kind not stored by id (no `idPrefix`)
   * has these alone.
   */
  readonly routes?: (d: KindDescriptor) => Route[];
  /** Agents can connect with a credential of this kind, over this transport. */
  readonly agentTransport?: SessionTransport;
}

export const kindBehaviour: Readonly<Partial<Record<KindName, KindBehaviour>>> = {
  http_response_backends: { derive: lowerCaseHeaderNames },
  reserved_addrs: { derive: assignTcpAddress },
  reserved_domains: { derive: assignDomainTargets },
  agent_ingresses: { derive: assignIngressTargets },
  // Tunnels follow every session that starts or stops.
  tunnel_group_backends: { decorate: { reads: ['tunnel_sessions'], add: tunnelGroupTunnels } },
  event_subscriptions: { decorate: { reads: [], add: subscriptionSources } },
  event_sources: { routes: eventSourceRoutes },
  tunnel_sessions: { routes: sessionCommandRoutes },
  credentials: { agentTransport: 'svc/v2' },
  ssh_credentials: { agentTransport: 'ssh' },
};

interface ModuleBehaviour {
  /** Read-only members the service fills when the module is written; `moduleUri` is the module's own. */
  readonly derive: (value: Record<string, unknown>, moduleUri: string) => void;
}

/**
 * What the emulator does for a module beyond its descriptor, keyed by the module's name (its URL
 * segment; descriptors hold copies of a module, so not by identity).
 */
export const moduleBehaviour: ReadonlyMap<ModuleDescriptor['name'], ModuleBehaviour> = new Map([
  [samlModule.name, { derive: deriveSamlMembers }],
]);
