/**
 * The API's routes, generated from the descriptors: the standard operations each kind declares,
 * module endpoints for each module member, and the few endpoints the spec gives their own shape
 * (event sources, tunnel session commands).
 */
import {
  allDescriptors,
  moduleFields,
  tunnelSessionCommands,
  type KindDescriptor,
} from '../resources/index.js';
import type { Handler } from './call.js';
import {
  createHandler,
  deleteHandler,
  getHandler,
  listHandler,
  moduleDeleteHandler,
  moduleGetHandler,
  modulePutHandler,
  updateHandler,
} from './crud.js';
import { createSource, deleteSource, getSource, listSources, updateSource } from './event-sources.js';
import { pagingParameters } from './paging.js';
import type { Route } from './router.js';
import { commandHandler } from './sessions.js';

function api(method: string, pattern: string, handler: Handler, query: readonly string[] = []): Route {
  return { method, pattern, handler, query, write: method !== 'GET', api: true };
}

function kindRoutes(d: KindDescriptor): Route[] {
  if (d.idPrefix === undefined) {
    // Event sources: kept inside their subscription, addressed by type.
    const item = `${d.path}/{${d.pathKey ?? 'id'}}`;
    return [
      api('POST', d.path, createSource),
      api('GET', d.path, listSources),
      api('GET', item, getSource),
      api('PATCH', item, updateSource),
      api('DELETE', item, deleteSource),
    ];
  }
  const item = `${d.path}/{id}`;
  const ops = d.operations;
  const routes: Route[] = [];
  if (ops.create) routes.push(api('POST', d.path, createHandler(d)));
  if (ops.list && d.listMember !== undefined)
    routes.push(api('GET', d.path, listHandler(d, d.listMember), pagingParameters));
  if (ops.get) routes.push(api('GET', item, getHandler(d)));
  if (ops.update) routes.push(api('PATCH', item, updateHandler(d)));
  if (ops.delete) routes.push(api('DELETE', item, deleteHandler(d)));
  for (const [name] of moduleFields(d)) {
    const path = `${item}/${name}`;
    routes.push(
      api('PUT', path, modulePutHandler(d, name)),
      api('GET', path, moduleGetHandler(d, name)),
      api('DELETE', path, moduleDeleteHandler(d, name)),
    );
  }
  if (d.kind === 'tunnel_sessions') {
    for (const command of tunnelSessionCommands)
      routes.push(api('POST', `${item}/${command}`, commandHandler(command)));
  }
  return routes;
}

/** Every route of the account API. */
export function apiRoutes(): Route[] {
  return allDescriptors.flatMap(kindRoutes);
}
