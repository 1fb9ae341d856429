/** Event sources: the `sources` of a subscription, managed one by one under it. */
import { descriptors, ErrorCode, validateBody, type KindDescriptor } from '../resources/index.js';
import type { Account } from './account.js';
import type { Call, Handler } from './call.js';
import type { StoredRecord } from './collection.js';
import { publishWrite } from './events.js';
import { ApiFailure, fromViolations, notFound } from './failure.js';
import { apiRoute, type Route } from './router.js';

const subscriptions = descriptors.event_subscriptions;
const sourcesKind = descriptors.event_sources;

interface Source {
  readonly type: string;
}

function subscriptionOf(call: Call): StoredRecord {
  const record = call.account.collection('event_subscriptions').get(call.params.subscription_id ?? '');
  if (record === undefined) throw notFound();
  return record;
}

function sourcesOf(record: StoredRecord): Source[] {
  return Array.isArray(record.values.sources) ? (record.values.sources as Source[]) : [];
}

/** The address of one source of a subscription. */
export function sourceUri(account: Account, subscriptionId: string, type: string): string {
  return `${account.origin}/event_subscriptions/${subscriptionId}/sources/${encodeURIComponent(type)}`;
}

function render(account: Account, subscriptionId: string, source: Source): Record<string, unknown> {
  return { type: source.type, uri: sourceUri(account, subscriptionId, source.type) };
}

function changeSources(account: Account, record: StoredRecord, sources: Source[]): void {
  account.replace(subscriptions, record, { ...record.values, sources });
  publishWrite(account, subscriptions, 'updated', account.render(subscriptions, record));
}

const createSource: Handler = (call) => {
  const record = subscriptionOf(call);
  const failure = fromViolations(
    validateBody(sourcesKind.fields, sourcesKind.rules, call.body, 'create', call.account.kinds),
  );
  if (failure) throw failure;
  const type = (call.body as Source).type;
  const sources = sourcesOf(record);
  if (sources.some((s) => s.type === type)) {
    throw new ApiFailure(409, ErrorCode.validationFailed, `the subscription already has the source ${type}`);
  }
  changeSources(call.account, record, [...sources, { type }]);
  return { status: 201, body: render(call.account, record.id, { type }) };
};

const listSources: Handler = (call) => {
  const record = subscriptionOf(call);
  return {
    status: 200,
    body: {
      sources: sourcesOf(record).map((s) => render(call.account, record.id, s)),
      uri: `${call.account.origin}/event_subscriptions/${record.id}/sources`,
    },
  };
};

function sourceOf(call: Call): { record: StoredRecord; source: Source } {
  const record = subscriptionOf(call);
  const source = sourcesOf(record).find((s) => s.type === call.params.type);
  if (source === undefined) throw notFound();
  return { record, source };
}

const getSource: Handler = (call) => {
  const { record, source } = sourceOf(call);
  return { status: 200, body: render(call.account, record.id, source) };
};

const updateSource: Handler = (call) => {
  const { record, source } = sourceOf(call);
  const failure = fromViolations(
    validateBody(sourcesKind.fields, sourcesKind.rules, call.body, 'update', call.account.kinds),
  );
  if (failure) throw failure;
  return { status: 200, body: render(call.account, record.id, source) };
};

const deleteSource: Handler = (call) => {
  const { record, source } = sourceOf(call);
  changeSources(
    call.account,
    record,
    sourcesOf(record).filter((s) => s !== source),
  );
  return { status: 204 };
};

/** The routes of event sources, addressed by their type under their subscription. */
export function eventSourceRoutes(d: KindDescriptor): Route[] {
  const item = `${d.path}/{${d.pathKey ?? 'id'}}`;
  return [
    apiRoute('POST', d.path, createSource),
    apiRoute('GET', d.path, listSources),
    apiRoute('GET', item, getSource),
    apiRoute('PATCH', item, updateSource),
    apiRoute('DELETE', item, deleteSource),
  ];
}
