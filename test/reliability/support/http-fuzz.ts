/**
 * Malformed requests for the emulator hardening fuzz, sent with node:http (full control over
 * methods, headers and bodies) or as raw bytes over TCP.
 */
import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import type { Fields, FieldType, KindDescriptor } from '../../../src/resources/index.js';
import type { Rng } from './prng.js';

export interface RawRequest {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  /** A string, or bytes; `size` streams that many bytes of JSON-ish filler instead. */
  readonly body?: string | Buffer;
  readonly size?: number;
}

export interface RawAnswer {
  /** 0 when the server closed the connection without an answer. */
  readonly status: number;
  readonly text: string;
}

export function send(origin: string, r: RawRequest): Promise<RawAnswer> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: r.method,
        path: r.path,
        headers: r.headers,
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', () => resolve({ status: 0, text: '' }));
    if (r.size !== undefined) {
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let left = r.size;
      const pump = (): void => {
        while (left > 0) {
          const piece = chunk.subarray(0, Math.min(chunk.length, left));
          left -= piece.length;
          if (!req.write(piece)) {
            req.once('drain', pump);
            return;
          }
        }
        req.end();
      };
      pump();
    } else {
      req.end(r.body);
    }
  });
}

/** Raw bytes over TCP; resolves with the status line's code (0 when none). */
export async function sendRaw(origin: string, bytes: string): Promise<number> {
  const url = new URL(origin);
  const socket = connect(Number(url.port), url.hostname);
  await once(socket, 'connect');
  let text = '';
  socket.setEncoding('utf8').on('data', (c: string) => (text += c));
  socket.on('error', () => undefined);
  socket.end(bytes);
  await Promise.race([once(socket, 'close'), new Promise((r) => setTimeout(r, 3_000))]);
  socket.destroy();
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  return match ? Number(match[1]) : 0;
}

/** A value of the wrong type for `type` (or out of its range). */
export function wrongValue(type: FieldType, rng: Rng): unknown {
  switch (type.type) {
    case 'string':
      return rng.pick([5, true, [], {}, ['x']]);
    case 'boolean':
      return rng.pick(['true', 1, 0, [], {}]);
    case 'integer':
      return rng.pick(['1', 1.5, type.max + 1, type.min - 1, true, [], 1e300]);
    case 'number':
      return rng.pick(['0.5', true, [], {}, ...(type.max === undefined ? [] : [type.max + 1])]);
    case 'enum':
      return rng.pick(['not-a-value', 1, [], {}]);
    case 'list':
      return rng.pick(['x', 1, {}, true]);
    case 'map':
      return rng.pick(['x', 1, [], true]);
    case 'object':
    case 'module':
      return rng.pick(['x', 1, [], true]);
    case 'ref':
      return type.many ? rng.pick(['x', 1, [5], [{}], ['zz_nope']]) : rng.pick([5, {}, [], 'zz_nope']);
    case 'json':
      return undefined;
  }
}

/** Writable fields of a body, by name on the wire. */
export function writableFields(fields: Fields): Array<[string, FieldType]> {
  return Object.entries(fields)
    .filter(([, f]) => f.write !== 'read-only' && f.type.type !== 'json')
    .map(([name, f]) => [f.writeAs ?? name, f.type]);
}

/** Bodies that are not valid JSON objects, as sent on the wire. */
export const badJsonBodies: readonly string[] = [
  '{',
  '{"description": }',
  '[]',
  'null',
  '"a string"',
  '42',
  'true',
  "{'single': 'quotes'}",
  '{"a": 1,}',
  '\ufeff{}',
  '['.repeat(5_000) + ']'.repeat(5_000),
  '{"a":'.repeat(3_000) + '1' + '}'.repeat(3_000),
  'NaN',
  '{"description": 1e400}',
];

/** Paths no route serves, or that try to escape one. */
export const unknownPaths: readonly string[] = [
  '/',
  '/nope',
  '/ip_policies/',
  '//ip_policies',
  '/ip_policies/../credentials',
  '/ip_policies/%2e%2e/credentials',
  '/ip_policies/ipp_1/rules/extra',
  '/%00',
  '/_emulator',
  '/_emulator/../ip_policies',
  '/_emulator/nope',
  '/edges/https/x/routes/y/z/w',
  `/${'a'.repeat(4_000)}`,
  '/ip_policies?limit=',
  '/ip_policies?limit=0',
  '/ip_policies?limit=101',
  '/ip_policies?limit=abc',
  '/ip_policies?before_id=%00',
  '/ip_policies?unknown=1',
  '/ip_policies?__proto__=1',
];

/** Ids that name nothing: wrong prefix, malformed, huge, encoded. */
export function badIds(d: KindDescriptor): string[] {
  const prefix = d.idPrefix ?? 'x_';
  return [
    `${prefix}doesnotexist0000`,
    'ipx_00000000000000',
    'zz_1',
    '%20',
    '__proto__',
    'constructor',
    'toString',
    `${prefix}${'9'.repeat(300)}`,
    '%F0%9F%98%80',
    '%ZZ',
  ];
}

export const badTokens: ReadonlyArray<Record<string, string>> = [
  {},
  { authorization: '' },
  { authorization: 'Bearer' },
  { authorization: 'Bearer ' },
  { authorization: 'Bearer nope' },
  { authorization: 'Basic dXNlcjpwYXNz' },
  { authorization: 'Token abc' },
  { authorization: 'Bearer __proto__' },
  { authorization: 'Bearer constructor' },
  { authorization: `Bearer ${'x'.repeat(8_000)}` },
];
