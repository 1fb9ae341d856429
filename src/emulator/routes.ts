/**
 * The API's routes, generated from the descriptors: the standard operations each kind declares,
 * module endpoints for each module member, and the endpoints a kind's entry in `kind-behaviour.ts`
 * adds (event sources, tunnel session commands).
 */
import { moduleFields, type KindDescriptor, type KindRegistry } from '../resources/index.js';
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
import { kindBehaviour } from './kind-behaviour.js';
import { pagingParameters } from './paging.js';
import { apiRoute, type Route } from './router.js';

/** The operations the descriptor declares and its module endpoints, for a kind stored by id. */
function standardRoutes(d: KindDescriptor): Route[] {
  const item = `${d.path}/{id}`;
  const ops = d.operations;
  const routes: Route[] = [];
  if (ops.create) routes.push(apiRoute('POST', d.path, createHandler(d)));
  if (ops.list && d.listMember !== undefined)
    routes.push(apiRoute('GET', d.path, listHandler(d, d.listMember), pagingParameters));
  if (ops.get) routes.push(apiRoute('GET', item, getHandler(d)));
  if (ops.update) routes.push(apiRoute('PATCH', item, updateHandler(d)));
  if (ops.delete) routes.push(apiRoute('DELETE', item, deleteHandler(d)));
  // The module's URL segment is its descriptor's name, the one the applier writes to as well.
  for (const [name, module] of moduleFields(d)) {
    const path = `${item}/${module.name}`;
    routes.push(
      apiRoute('PUT', path, modulePutHandler(d, name)),
      apiRoute('GET', path, moduleGetHandler(d, name)),
      apiRoute('DELETE', path, moduleDeleteHandler(d, name)),
    );
  }
  return routes;
}

function kindRoutes(d: KindDescriptor): Route[] {
  // Objects without an id of their own live inside another record (event sources in their
  // subscription): the generic handlers cannot store them, so their kind's own routes serve them.
  const standard = d.idPrefix === undefined ? [] : standardRoutes(d);
  return [...standard, ...(kindBehaviour[d.kind]?.routes?.(d) ?? [])];
}

/** Every route of the account API, for the kinds it serves. */
export function apiRoutes(kinds: KindRegistry): Route[] {
  return kinds.all.flatMap(kindRoutes);
}
