/**
 * Emulator hardening: malformed requests (bad JSON, wrong types, huge bodies, unknown paths and
 * methods, bad ids, bad tokens, missing headers, `__proto__` keys) never get a 5xx, never crash the
 * server and never change its state; every route, the control surface included, requires auth.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CertificateJobs } from '../../src/emulator/certificate-jobs.js';
import { controlRoutes } from '../../src/emulator/control.js';
import { apiRoutes } from '../../src/emulator/routes.js';
import { builtinKinds, type KindDescriptor } from '../../src/resources/index.js';
import { useAccount } from '../support/use-account.js';
import { listEverything, syncOnce, type Json } from './support/account.js';
import { examplesAccount } from './support/faults.js';
import {
  badIds,
  badJsonBodies,
  badTokens,
  send,
  sendRaw,
  unknownPaths,
  wrongValue,
  writableFields,
  type RawRequest,
} from './support/http-fuzz.js';
import { createRng, suiteSeed } from './support/prng.js';

const token = 'hardening-token';
const seed = suiteSeed('emulator-fuzz');
// Certificates issued in the background would change the state the tests compare: not now.
const account = useAccount({ token, certDelayMs: 3_600_000 }, 'file');
let live: Map<string, Json[]>;

const auth = { authorization: `Bearer ${token}`, 'svc-version': '2' };
const json = { ...auth, 'content-type': 'application/json' };

/** Everything a client can observe of the state: every collection, principals, agents, deliveries. */
async function snapshot(): Promise<string> {
  const all = await listEverything(account.client);
  const control = await Promise.all(
    ['/_emulator/principals', '/_emulator/agents', '/_emulator/deliveries'].map((p) =>
      account.client.get<Json>(p).then((r) => {
        const body = { ...r.body };
        delete body.caller;
        return body;
      }),
    ),
  );
  return JSON.stringify({ all: [...all].sort(([a], [b]) => a.localeCompare(b)), control });
}

function firstId(kind: string): string | undefined {
  const id = live.get(kind)?.[0]?.id;
  return typeof id === 'string' ? id : undefined;
}

/** The descriptor a route pattern belongs to: the one with the longest path prefix. */
function ownerOf(pattern: string): KindDescriptor | undefined {
  return builtinKinds.all
    .filter((d) => d.idPrefix !== undefined && (pattern === d.path || pattern.startsWith(`${d.path}/`)))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

/** A route pattern with its parameters filled with ids of live objects (or plausible fakes). */
function fill(pattern: string): string {
  const owner = ownerOf(pattern);
  return pattern
    .replace('{edge_id}', firstId('https_edges') ?? 'edghts_x')
    .replace('{subscription_id}', firstId('event_subscriptions') ?? 'esb_x')
    .replace('{type}', 'ip_policy_created.v0')
    .replace('{id}', (owner && firstId(owner.kind)) ?? `${owner?.idPrefix ?? 'x_'}00000000000000`);
}

interface Outcome {
  readonly label: string;
  readonly status: number;
  readonly text: string;
}

async function run(requests: readonly RawRequest[]): Promise<Outcome[]> {
  const out: Outcome[] = [];
  // A few at a time: concurrency is part of what the server must survive.
  for (let i = 0; i < requests.length; i += 8) {
    const batch = requests.slice(i, i + 8);
    const answers = await Promise.all(batch.map((r) => send(account.url, r)));
    answers.forEach((a, j) =>
      out.push({ label: batch[j]?.label ?? '', status: a.status, text: a.text.slice(0, 200) }),
    );
  }
  return out;
}

/** Outcomes that are not a clean refusal: a 5xx, no answer at all, or an acceptance. */
function notRefused(outcomes: readonly Outcome[], expected?: number): string[] {
  return outcomes
    .filter((o) => (expected === undefined ? o.status < 400 || o.status >= 500 : o.status !== expected))
    .map((o) => `${o.status} ${o.label} ${o.text}`);
}

beforeAll(async () => {
  const synced = await syncOnce(account.client, [examplesAccount]);
  if (synced.status !== 'succeeded') throw new Error('examples did not sync');
  live = await listEverything(account.client);
});

describe('emulator hardening', () => {
  const routes = [
    ...apiRoutes(builtinKinds),
    ...controlRoutes({
      getFaults: () => ({}),
      setFaults: () => undefined,
      stats: () => ({ total: 0, routes: [] }),
      resetStats: () => undefined,
      // Only the routes' methods and patterns are read here; the running emulator answers them.
      certificateJobs: undefined as unknown as CertificateJobs,
    }),
  ];

  it('every route refuses a missing or bad token with 401, and nothing changes', async () => {
    const before = await snapshot();
    const requests: RawRequest[] = [];
    for (const route of routes) {
      for (const headers of badTokens) {
        const withBody = ['POST', 'PATCH', 'PUT'].includes(route.method);
        requests.push({
          label: `${route.method} ${route.pattern} ${JSON.stringify(headers).slice(0, 40)}`,
          method: route.method,
          path: fill(route.pattern),
          headers: {
            'svc-version': '2',
            ...headers,
            ...(withBody ? { 'content-type': 'application/json' } : {}),
          },
          ...(withBody ? { body: JSON.stringify({ description: 'must not be written' }) } : {}),
        });
      }
    }
    // Unknown paths and methods are refused for lack of credentials too: nothing is probed unauthenticated.
    for (const path of unknownPaths)
      requests.push({ label: `GET ${path}`, method: 'GET', path, headers: {} });
    for (const method of ['DELETE', 'PUT', 'OPTIONS', 'TRACE', 'PROPFIND']) {
      requests.push({ label: `${method} /ip_policies`, method, path: '/ip_policies', headers: {} });
    }
    const outcomes = await run(requests);
    expect(notRefused(outcomes, 401)).toEqual([]);
    expect(await snapshot()).toBe(before);
  }, 60_000);

  it('malformed requests are refused with a 4xx, never a 5xx, and change nothing', async () => {
    const rng = createRng(seed);
    const before = await snapshot();
    const requests: RawRequest[] = [];
    const writeRoutes = routes.filter((r) => ['POST', 'PATCH', 'PUT'].includes(r.method));
    // Bad JSON on every write route.
    for (const route of writeRoutes) {
      for (const body of badJsonBodies) {
        requests.push({
          label: `bad JSON ${route.method} ${route.pattern} ${body.slice(0, 30)}`,
          method: route.method,
          path: fill(route.pattern),
          headers: json,
          body,
        });
      }
    }
    // Invalid UTF-8.
    requests.push({
      label: 'invalid UTF-8',
      method: 'POST',
      path: '/ip_policies',
      headers: json,
      body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    // Wrong types, one field at a time, on create and update of every kind.
    for (const d of builtinKinds.all) {
      if (d.idPrefix === undefined) continue;
      for (const [name, type] of writableFields(d.fields)) {
        for (let k = 0; k < 2; k++) {
          const value = wrongValue(type, rng);
          if (value === undefined) continue;
          const body = JSON.stringify({ [name]: value });
          if (d.operations.create)
            requests.push({
              label: `wrong type POST ${d.path} ${body.slice(0, 60)}`,
              method: 'POST',
              path: fill(d.path),
              headers: json,
              body,
            });
          if (d.operations.update && firstId(d.kind) !== undefined)
            requests.push({
              label: `wrong type PATCH ${d.path} ${body.slice(0, 60)}`,
              method: 'PATCH',
              path: fill(`${d.path}/{id}`),
              headers: json,
              body,
            });
        }
      }
    }
    // Unknown members and prototype keys.
    for (const route of writeRoutes) {
      for (const body of [
        '{"__proto__": {"admin": true}}',
        '{"description": "x", "__proto__": {"polluted": true}, "nope": 1}',
        '{"constructor": {"prototype": {"polluted": true}}}',
        '{"unknown_member": 1}',
        '{"id": "ipp_someoneelse"}',
      ]) {
        if (route.pattern.startsWith('/_emulator/') && body.startsWith('{"__proto__": {"admin"')) continue;
        requests.push({
          label: `proto/unknown ${route.method} ${route.pattern} ${body}`,
          method: route.method,
          path: fill(route.pattern),
          headers: json,
          body,
        });
      }
    }
    // Bad ids on every item route.
    for (const route of routes.filter((r) => r.pattern.endsWith('{id}'))) {
      for (const id of badIds(ownerOf(route.pattern) ?? builtinKinds.all[0]!)) {
        const path = fill(route.pattern).replace(/[^/]*$/, id);
        const withBody = route.method !== 'GET' && route.method !== 'DELETE';
        requests.push({
          label: `bad id ${route.method} ${path.slice(0, 80)}`,
          method: route.method,
          path,
          headers: json,
          ...(withBody ? { body: '{"description":"x"}' } : {}),
        });
      }
    }
    // Unknown methods, with valid credentials (unknown paths are read-only: checked below).
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'CONNECTX']) {
      requests.push({
        label: `method ${method} /ip_policies`,
        method,
        path: '/ip_policies',
        headers: json,
        body: '{}',
      });
    }
    // Headers: missing or wrong content type, wrong version, duplicate-ish values.
    const create = JSON.stringify({ description: 'must not be created' });
    requests.push(
      { label: 'no content-type', method: 'POST', path: '/ip_policies', headers: auth, body: create },
      {
        label: 'text/plain',
        method: 'POST',
        path: '/ip_policies',
        headers: { ...auth, 'content-type': 'text/plain' },
        body: create,
      },
      {
        label: 'form',
        method: 'POST',
        path: '/ip_policies',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'description=x',
      },
      {
        label: 'version 3',
        method: 'POST',
        path: '/ip_policies',
        headers: { ...json, 'svc-version': '3' },
        body: create,
      },
      {
        label: 'version empty',
        method: 'POST',
        path: '/ip_policies',
        headers: { ...json, 'svc-version': '' },
        body: create,
      },
      {
        label: 'version list',
        method: 'POST',
        path: '/ip_policies',
        headers: { ...json, 'svc-version': '2, 2' },
        body: create,
      },
    );
    // Huge bodies, declared and streamed.
    requests.push(
      {
        label: 'huge declared',
        method: 'POST',
        path: '/ip_policies',
        headers: { ...json, 'content-length': String(3 * 1024 * 1024) },
        size: 3 * 1024 * 1024,
      },
      {
        label: 'huge chunked',
        method: 'POST',
        path: '/ip_policies',
        headers: { ...json, 'transfer-encoding': 'chunked' },
        size: 3 * 1024 * 1024,
      },
      {
        label: 'huge description',
        method: 'POST',
        path: '/ip_policies',
        headers: json,
        body: JSON.stringify({ description: 'x'.repeat(900_000) }),
      },
    );

    const outcomes = await run(requests);
    expect(notRefused(outcomes)).toEqual([]);
    // Odd paths with valid credentials: a GET may be served (`//ip_policies` is the list), never a 5xx.
    const reads = await run(
      unknownPaths.map((path) => ({ label: `GET ${path.slice(0, 60)}`, method: 'GET', path, headers: auth })),
    );
    expect(
      reads.filter((o) => o.status === 0 || o.status >= 500).map((o) => `${o.status} ${o.label}`),
    ).toEqual([]);
    expect(await snapshot()).toBe(before);
    // The emulator runs in this process: no request polluted Object.prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  }, 60_000);

  it('survives garbage on the wire and still answers', async () => {
    const before = await snapshot();
    const garbage = [
      'GARBAGE\r\n\r\n',
      'GET\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      `GET /ip_policies HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Length: -1\r\n\r\n`,
      `POST /ip_policies HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"descr`,
      `POST /ip_policies HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
      `GET /ip_policies HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n`,
      '\u0000\u0001\u0002\u00ff',
    ];
    const statuses = await Promise.all(garbage.map((g) => sendRaw(account.url, g)));
    // Either refused by the HTTP parser (4xx) or the connection closed; never a 5xx.
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(await snapshot()).toBe(before);
    const ok = await send(account.url, {
      label: 'alive',
      method: 'GET',
      path: '/ip_policies',
      headers: auth,
    });
    expect(ok.status).toBe(200);
  }, 30_000);

  it('a created user cannot be made admin through __proto__', async () => {
    const res = await send(account.url, {
      label: 'user',
      method: 'POST',
      path: '/_emulator/users',
      headers: json,
      body: '{"__proto__": {"admin": true}}',
    });
    // Either refused as an unknown member or created without admin rights.
    if (res.status === 201) expect((JSON.parse(res.text) as { admin: unknown }).admin).toBe(false);
    else expect(res.status).toBe(400);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
