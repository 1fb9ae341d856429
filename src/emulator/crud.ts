/**
 * The five standard operations and module PUT/GET/DELETE, one code path for every kind: validate
 * with the shared descriptors, convert request names, fill defaults, check references, derive the
 * service's members, check uniqueness, store, emit the event.
 */
import {
  ErrorCode,
  fromRequestBody,
  serverFills,
  validateBody,
  withDefaults,
  type Field,
  type Fields,
  type KindDescriptor,
  type ModuleDescriptor,
} from '../resources/index.js';
import type { Account } from './account.js';
import type { Located } from './model.js';
import type { Call, Handler, Reply } from './call.js';
import type { StoredRecord } from './collection.js';
import { deriveModule, deriveValues } from './derive.js';
import { publishWrite } from './events.js';
import { ApiFailure, badRequest, fromViolations, notFound } from './failure.js';
import { compare } from '../compare.js';
import { isPlainObject } from '../plain-object.js';
import { locate } from './locate.js';
import { pageOf } from './paging.js';
import { collectReferences } from './references.js';
import { keptValues } from './answers.js';

function bodyObject(call: Call): Record<string, unknown> {
  if (!isPlainObject(call.body)) throw badRequest(ErrorCode.invalidValue, 'the body must be a JSON object');
  return call.body;
}

function assertValid(
  account: Account,
  fields: Fields,
  rules: KindDescriptor['rules'],
  body: unknown,
  mode: 'create' | 'update' | 'replace',
): void {
  const failure = fromViolations(validateBody(fields, rules, body, mode, account.kinds));
  if (failure) throw failure;
}

/** 400 (223) for a reference to an object that does not exist. */
function assertReferencesExist(account: Account, fields: Fields, values: Record<string, unknown>): void {
  for (const { id, path } of collectReferences(fields, values)) {
    if (account.find(id) === undefined) {
      throw badRequest(ErrorCode.badReference, `${path.join('.')}: ${id} does not exist`, {
        field: path.join('.'),
        id,
      });
    }
  }
}

/**
 * Whole-object rules on the stored shape, for writes that change part of an object. A server-filled
 * member the request did not write is the service's (the certificate issued under a policy), not a
 * choice the rules judge.
 */
function assertRules(
  d: KindDescriptor,
  values: Record<string, unknown>,
  written: Readonly<Record<string, unknown>> = values,
): void {
  const judged = Object.fromEntries(
    Object.entries(values).filter(([name]) => !(serverFills(d.fields[name], values) && !(name in written))),
  );
  const failure = fromViolations(d.rules.flatMap((rule) => rule.check(judged, 'read')));
  if (failure) throw failure;
}

/**
 * A request's values as the service keeps them (`answers.ts`), less a member whose writes it does
 * not keep (the `notKept` fault: `update` keeps the old value, a create its default).
 */
function asKept(account: Account, fields: Fields, written: Record<string, unknown>): Record<string, unknown> {
  const values = account.answers === 'vendor' ? keptValues(fields, written) : written;
  if (account.notKept !== undefined) delete values[account.notKept];
  return values;
}

/** A value as stored once written: defaults filled inside it. */
function stored(name: string, f: Field, value: unknown): unknown {
  return withDefaults({ [name]: f }, { [name]: value })[name];
}

export function createHandler(d: KindDescriptor): Handler {
  return (call) => {
    const { account } = call;
    const body = bodyObject(call);
    assertValid(account, d.fields, d.rules, body, 'create');
    const values = withDefaults(d.fields, asKept(account, d.fields, fromRequestBody(d.fields, body)));
    if (d.parent?.via === 'path') {
      const parentId = call.params[d.parent.field] ?? '';
      if (account.collection(d.parent.kind).get(parentId) === undefined) throw notFound();
      values[d.parent.field] = parentId;
    }
    assertReferencesExist(account, d.fields, values);
    const id = account.ids.next(d.idPrefix ?? '');
    const hidden: Record<string, unknown> = {};
    const uri = `${account.origin}${account.collectionPath(d, values)}/${id}`;
    const token = deriveValues(d, values, hidden, {
      account,
      principal: call.principal,
      uri,
      written: values,
      creating: true,
    });
    account.assertUnique(d, values);
    const record: StoredRecord = { id, created_at: account.timestamp(), values, hidden };
    account.insert(d, record);
    account.lifecycle.written(d, record, undefined);
    const out = account.render(d, record);
    publishWrite(account, d, 'created', out);
    if (token !== undefined && d.tokenField !== undefined)
      return { status: 201, body: { ...out, [d.tokenField]: token } };
    return { status: 201, body: out };
  };
}

export function listHandler(d: KindDescriptor, member: string): Handler {
  const memberJson = JSON.stringify(member);
  return (call) => {
    const { account } = call;
    const path = account.collectionPath(d, call.params);
    const { limit, beforeId } = pageOf(call.query);
    const origin = account.origin;
    // Neither origin nor path holds a `?`: the address names one page of one collection.
    const address = `${origin}${path}?${limit}&${beforeId ?? ''}`;
    const json = account.listPage(address, () => {
      const { records, more } = account.collection(d.kind).page(limit, beforeId);
      const last = records.at(-1);
      const next =
        more && last !== undefined
          ? `${origin}${path}?before_id=${encodeURIComponent(last.id)}&limit=${limit}`
          : null;
      // The text JSON.stringify gives `{ [member]: [...], uri, next_page_uri }`, from cached items.
      const items = records.map((r) => account.renderJson(d, r)).join(',');
      return (
        `{${memberJson}:[${items}],"uri":${JSON.stringify(origin + path)},` +
        `"next_page_uri":${JSON.stringify(next)}}`
      );
    });
    return { status: 200, json };
  };
}

export function getHandler(d: KindDescriptor): Handler {
  return (call) => {
    const { record } = locate(call, d);
    return { status: 200, json: call.account.renderJson(d, record) };
  };
}

export function updateHandler(d: KindDescriptor): Handler {
  return (call) => {
    const { account } = call;
    const { record } = locate(call, d);
    const body = bodyObject(call);
    assertValid(call.account, d.fields, d.rules, body, 'update');
    const patch = fromRequestBody(d.fields, body);
    assertReferencesExist(account, d.fields, patch);
    const keptPatch = asKept(account, d.fields, { ...patch });
    const values = { ...record.values };
    for (const [name, value] of Object.entries(keptPatch)) {
      const f = d.fields[name];
      if (f === undefined || !(name in patch)) continue;
      // A module cannot be removed by an update: null, like absence, keeps it.
      if (f.type.type === 'module' && value === null) continue;
      values[name] = stored(name, f, value);
    }
    deriveValues(d, values, record.hidden, {
      account,
      principal: call.principal,
      uri: account.uriOf(record.id),
      written: patch,
      creating: false,
      before: record.values,
    });
    assertRules(d, values, patch);
    account.assertUnique(d, values, record.id);
    const before = record.values;
    account.replace(d, record, values);
    account.lifecycle.written(d, record, before);
    const out = account.render(d, record);
    publishWrite(account, d, 'updated', out);
    return { status: 200, body: out };
  };
}

/**
 * Removes an object. Children hanging off it (rules of a policy, routes of an edge) go with it;
 * any other referrer blocks the delete with 409 naming the referrers.
 */
function removeObject(account: Account, d: KindDescriptor, record: StoredRecord): void {
  const children: Located[] = [];
  const blocking: string[] = [];
  for (const id of account.referrersOf(record.id)) {
    const found = account.find(id);
    if (found === undefined) continue;
    const link = found.d.parent;
    if (link?.kind === d.kind && found.record.values[link.field] === record.id) children.push(found);
    else blocking.push(id);
  }
  if (blocking.length > 0) {
    blocking.sort(compare);
    throw new ApiFailure(
      409,
      ErrorCode.objectInUse,
      `${record.id} is still referenced by ${blocking.join(', ')}`,
      { referrers: blocking },
    );
  }
  for (const child of children) removeObject(account, child.d, child.record);
  const out = account.render(d, record);
  account.remove(d, record);
  publishWrite(account, d, 'deleted', out);
  account.lifecycle.removed(d, record);
}

export function deleteHandler(d: KindDescriptor): Handler {
  return (call): Reply => {
    const { record } = locate(call, d);
    removeObject(call.account, d, record);
    return { status: 204 };
  };
}

function moduleOf(d: KindDescriptor, name: string): { f: Field; module: ModuleDescriptor } {
  const f = d.fields[name];
  if (f?.type.type !== 'module') throw new Error(`${d.kind}.${name} is not a module`);
  return { f, module: f.type.module };
}

export function moduleGetHandler(d: KindDescriptor, name: string): Handler {
  return (call) => {
    const { record } = locate(call, d);
    if (!isPlainObject(record.values[name])) throw notFound();
    return { status: 200, body: call.account.render(d, record)[name] };
  };
}

export function modulePutHandler(d: KindDescriptor, name: string): Handler {
  const { f, module } = moduleOf(d, name);
  return (call) => {
    const { account } = call;
    const { record } = locate(call, d);
    const body = bodyObject(call);
    assertValid(call.account, module.fields, module.rules, body, 'replace');
    const value = stored(name, f, asKept(account, module.fields, fromRequestBody(module.fields, body)));
    if (!isPlainObject(value)) throw badRequest(ErrorCode.invalidValue, 'the body must be a JSON object');
    assertReferencesExist(account, module.fields, value);
    deriveModule(module, value, account.uriOf(record.id));
    const values = { ...record.values, [name]: value };
    assertRules(d, values);
    account.replace(d, record, values);
    const out = account.render(d, record);
    publishWrite(account, d, 'updated', out);
    return { status: 200, body: out[name] };
  };
}

export function moduleDeleteHandler(d: KindDescriptor, name: string): Handler {
  return (call) => {
    const { account } = call;
    const { record } = locate(call, d);
    if (record.values[name] !== null) {
      account.replace(d, record, { ...record.values, [name]: null });
      publishWrite(account, d, 'updated', account.render(d, record));
    }
    return { status: 204 };
  };
}
