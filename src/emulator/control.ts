/**
 * The control surface under `/_emulator/`, behind the same auth as the API: principals (users and
 * bots with an admin flag), simulated agents, event deliveries, certificate provisioning jobs, faults
 * and request statistics.
 */
import { ErrorCode } from '../resources/index.js';
import type { Principal } from './model.js';
import type { Handler } from './call.js';
import { jobFailures, type CertificateJobs, type JobFailure } from './certificate-jobs.js';
import { badRequest, notFound } from './failure.js';
import { parseFaults, type FaultOptions } from './faults.js';
import { isPlainObject } from '../plain-object.js';
import { servingAt } from './request-origin.js';
import type { Route } from './router.js';
import { connectAgent, patchAgent } from './agents.js';
import type { EmulatorStats } from './stats.js';

/** What the control surface changes outside the account. */
export interface Controls {
  getFaults(): FaultOptions;
  setFaults(faults: FaultOptions): void;
  stats(): EmulatorStats;
  resetStats(): void;
  readonly certificateJobs: CertificateJobs;
}

function route(method: string, pattern: string, handler: Handler): Route {
  return { method, pattern, handler, write: method !== 'GET', api: false };
}

function createPrincipal(kind: Principal['kind']): Handler {
  return ({ account, body }) => {
    if (!isPlainObject(body)) throw badRequest(ErrorCode.invalidValue, 'the body must be a JSON object');
    const unknown = Object.keys(body).find((k) => k !== 'admin');
    if (unknown !== undefined)
      throw badRequest(ErrorCode.unknownField, `unknown field ${unknown}`, { field: unknown });
    if (body.admin !== undefined && typeof body.admin !== 'boolean') {
      throw badRequest(ErrorCode.invalidValue, 'admin must be true or false', { field: 'admin' });
    }
    const principal: Principal = {
      id: account.ids.next(kind === 'user' ? 'usr_' : 'bot_'),
      kind,
      admin: body.admin === true,
    };
    account.principals.set(principal.id, principal);
    account.onChange();
    return { status: 201, body: principal };
  };
}

/**
 * Ends the provisioning job of an object with a certificate management policy:
 * `{"outcome": "issued"}` issues the certificate now; `{"outcome": "failed", "error_code":
 * "DNS_ERROR" | "INTERNAL_ERROR", "msg"?: string}` fails it. Answers the object as the API shows it.
 */
function endCertificateJob(jobs: CertificateJobs): Handler {
  return async ({ account, params, body }) => {
    const origin = account.origin;
    const found = account.find(params.id ?? '');
    if (found === undefined) throw notFound();
    if (!isPlainObject(body)) throw badRequest(ErrorCode.invalidValue, 'the body must be a JSON object');
    const unknown = Object.keys(body).find((k) => !['outcome', 'error_code', 'msg'].includes(k));
    if (unknown !== undefined)
      throw badRequest(ErrorCode.unknownField, `unknown field ${unknown}`, { field: unknown });
    if (body.outcome === 'issued') {
      await jobs.complete(found.d, found.record.id);
    } else if (body.outcome === 'failed') {
      const code = body.error_code ?? 'DNS_ERROR';
      if (!jobFailures.includes(code as JobFailure)) {
        throw badRequest(ErrorCode.invalidValue, `error_code must be one of ${jobFailures.join(', ')}`, {
          field: 'error_code',
        });
      }
      if (body.msg !== undefined && typeof body.msg !== 'string') {
        throw badRequest(ErrorCode.invalidValue, 'msg must be a string', { field: 'msg' });
      }
      jobs.fail(found.d, found.record.id, code as JobFailure, body.msg);
    } else {
      throw badRequest(ErrorCode.invalidValue, 'outcome must be "issued" or "failed"', { field: 'outcome' });
    }
    // Past the await: the answer's addresses are at the request's origin again.
    return servingAt(origin, () => ({ status: 200, body: account.render(found.d, found.record) }));
  };
}

export function controlRoutes(controls: Controls): Route[] {
  return [
    route('POST', '/_emulator/users', createPrincipal('user')),
    route('POST', '/_emulator/bots', createPrincipal('bot')),
    route('GET', '/_emulator/principals', ({ account, principal }) => ({
      status: 200,
      body: { principals: [...account.principals.values()], caller: principal },
    })),
    route('POST', '/_emulator/agents', connectAgent),
    route('GET', '/_emulator/agents', ({ account }) => ({
      status: 200,
      body: { agents: [...account.agents.values()] },
    })),
    route('GET', '/_emulator/agents/{id}', ({ account, params }) => {
      const agent = account.agents.get(params.id ?? '');
      if (agent === undefined) throw notFound();
      return { status: 200, body: agent };
    }),
    route('PATCH', '/_emulator/agents/{id}', patchAgent),
    route('GET', '/_emulator/deliveries', ({ account }) => ({
      status: 200,
      body: { deliveries: account.deliveries },
    })),
    route('DELETE', '/_emulator/deliveries', ({ account }) => {
      account.deliveries.length = 0;
      account.onChange();
      return { status: 204 };
    }),
    route('GET', '/_emulator/faults', () => ({ status: 200, body: controls.getFaults() })),
    route('PUT', '/_emulator/faults', ({ body }) => {
      controls.setFaults(parseFaults(body));
      return { status: 200, body: controls.getFaults() };
    }),
    route('POST', '/_emulator/certificate_jobs/{id}', endCertificateJob(controls.certificateJobs)),
    route('GET', '/_emulator/stats', () => ({ status: 200, body: controls.stats() })),
    route('DELETE', '/_emulator/stats', () => {
      controls.resetStats();
      return { status: 204 };
    }),
  ];
}
