/**
 * The program of the worker thread that evaluates a TLS edge's traffic-policy expressions offline
 * (src/traffic), as source text, like the policy rules' worker (`src/policy/rule-worker-source.ts`)
 * and under the same bounds. It declares the checker's environment (the variables under their
 * flat aliases, `environment.ts`) and gives the platform's macros their documented effect where
 * that effect is certain; a macro whose result acctsync cannot know offline (`rand.*`,
 * `secrets.get`, the hashes, whose output format the reference does not give) fails with "not
 * modelled", and the evaluator reports the outcome as unknown, never a guess. `lists.range` is the
 * one macro that makes a list of any length: past `maxRangeLength` it fails the same way, so that
 * the length asked for decides, never how fast the machine is.
 *
 * A variable the connection does not set is not declared a value: the CEL library then fails with
 * `unknown_variable` only when the result depends on it (`true || x` is true), and the answer
 * names it (`missing`).
 */
import { linearRegExpSource } from '../linear-regexp-source.js';

export const evaluationWorkerSource = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { BlockList, isIP } = require('node:net');
const { Environment } = require(workerData.celLibrary);
const { RE2JS } = require(workerData.re2js);

${linearRegExpSource}

class NotModelled extends Error {}

function inCidr(ip, cidr) {
  const family = isIP(ip);
  const slash = cidr.indexOf('/');
  const base = slash < 0 ? cidr : cidr.slice(0, slash);
  if (family === 0 || isIP(base) !== family) return false;
  const bits = slash < 0 ? (family === 4 ? 32 : 128) : Number(cidr.slice(slash + 1));
  const list = new BlockList();
  list.addSubnet(base, bits, family === 4 ? 'ipv4' : 'ipv6');
  return list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

const privateRanges = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'];

const implemented = {
  matches: (s, pattern) => new LinearRegExp(pattern).test(s),
  inCidrRange: (ip, cidr) => inCidr(ip, cidr),
  inCidrRanges: (ip, cidrs) => cidrs.some((c) => inCidr(ip, c)),
  isPrivateIp: (ip) => privateRanges.some((c) => inCidr(ip, c)),
  lower: (s) => s.toLowerCase(),
  upper: (s) => s.toUpperCase(),
  reverse: (s) => [...s].reverse().join(''),
  charAt: (s, i) => [...s][Number(i)] ?? '',
  replace: (s, from, to, n) =>
    n === undefined || n < 0n ? s.split(from).join(to) : replaceFirst(s, from, to, Number(n)),
  isJson: (s) => {
    try {
      JSON.parse(s);
      return true;
    } catch {
      return false;
    }
  },
  base64_decode: (s) => new Uint8Array(Buffer.from(s, 'base64')),
  base64_encode: (b) => Buffer.from(b).toString('base64'),
  decodeBase64: (s) => Buffer.from(s, 'base64').toString('utf8'),
  encodeBase64: (s) => Buffer.from(s, 'utf8').toString('base64'),
  lists_range: (n) => {
    if (n > BigInt(workerData.maxRangeLength))
      throw new NotModelled('lists.range past ' + workerData.maxRangeLength + ' elements is not evaluated offline');
    return Array.from({ length: Number(n) }, (_, i) => BigInt(i));
  },
  distinct: (l) => l.filter((v, i) => l.indexOf(v) === i),
};

function replaceFirst(s, from, to, n) {
  let out = s;
  let at = 0;
  for (let i = 0; i < n; i++) {
    const found = out.indexOf(from, at);
    if (found < 0) break;
    out = out.slice(0, found) + to + out.slice(found + from.length);
    at = found + to.length;
  }
  return out;
}

function notModelled(name) {
  return () => {
    throw new NotModelled(name + ' is not modelled offline');
  };
}

function nameOf(signature) {
  const head = signature.slice(0, signature.indexOf('('));
  return head.slice(head.lastIndexOf('.') + 1);
}

const env = new Environment({ homogeneousAggregateLiterals: false });
for (const [name, fields] of Object.entries(workerData.types)) env.registerType(name, { fields });
for (const [alias, type] of workerData.variables) env.registerVariable(alias, type);
for (const [signature, shown] of workerData.functions) {
  env.registerFunction(signature, implemented[nameOf(signature)] ?? notModelled(shown));
}

const programs = new Map();
function program(expression) {
  let compiled = programs.get(expression);
  if (compiled === undefined) {
    compiled = env.parse(expression);
    programs.set(expression, compiled);
  }
  return compiled;
}

function missingVariable(error) {
  if (!error || error.code !== 'unknown_variable') return undefined;
  const found = /Unknown variable: ([A-Za-z_][A-Za-z0-9_]*)/.exec(String(error.message));
  return found ? found[1] : undefined;
}

const JsRegExp = globalThis.RegExp;
parentPort.on('message', ({ id, expression, variables }) => {
  let answer;
  globalThis.RegExp = LinearRegExp;
  try {
    const value = program(expression)(variables);
    answer = { id, value: value === true ? true : value === false ? false : String(value) };
  } catch (error) {
    const missing = missingVariable(error);
    const message = String((error && (error.summary || error.message)) || error).split('\\n')[0];
    answer = missing === undefined ? { id, error: message } : { id, error: message, missing };
  } finally {
    globalThis.RegExp = JsRegExp;
  }
  parentPort.postMessage(answer);
});
parentPort.postMessage({ ready: true });
`;
