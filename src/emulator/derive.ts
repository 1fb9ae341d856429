/**
 * What the service computes when an object is written: owner and token, PEM-derived members,
 * certificate management status, keyed by data (a field's presence or format); then what the spec
 * gives one kind or module alone, from its entry in `kind-behaviour.ts`.
 */
import {
  ErrorCode,
  derivedOnce,
  moduleFields,
  type KindDescriptor,
  type ModuleDescriptor,
} from '../resources/index.js';
import equal from 'fast-deep-equal';
import type { DeriveContext } from './derive-context.js';
import { hashToken } from './token-auth.js';
import { derivePem } from './derive-pem.js';
import { ApiFailure, badRequest } from './failure.js';
import { kindBehaviour, moduleBehaviour } from './kind-behaviour.js';
import { isPlainObject } from '../plain-object.js';
import { newToken } from './platform.js';
import { isServiceIssued } from './service-issued.js';

/** Defaults the owner to the caller; only admins may name another owner, who must exist. */
function deriveOwner(values: Record<string, unknown>, ctx: DeriveContext): void {
  const owner = values.owner_id;
  if (owner === undefined) {
    values.owner_id = ctx.principal.id;
    return;
  }
  if (owner === ctx.principal.id) return;
  if (!ctx.principal.admin) {
    throw new ApiFailure(403, ErrorCode.forbidden, 'only admins may name an owner other than themselves', {
      field: 'owner_id',
    });
  }
  if (typeof owner !== 'string' || !ctx.account.principals.has(owner)) {
    throw badRequest(ErrorCode.badReference, `owner_id: no user or bot ${JSON.stringify(owner)}`, {
      field: 'owner_id',
    });
  }
}

/** Whether a status shows a failed provisioning job. */
function jobFailed(status: unknown): boolean {
  return (
    isPlainObject(status) &&
    isPlainObject(status.provisioning_job) &&
    status.provisioning_job.error_code !== null
  );
}

/**
 * Automatic certificate management: a policy starts a provisioning job; choosing an uploaded
 * certificate turns management off, and turning it on drops the uploaded certificate. Writing the
 * policy it already has changes nothing (a failed job starts again). Without a policy the service
 * fills nothing: the certificate it issued is no longer the object's.
 */
function deriveCertificateManagement(values: Record<string, unknown>, ctx: DeriveContext): void {
  const written = ctx.written;
  const policy = values.certificate_management_policy;
  if (
    !ctx.creating &&
    'certificate_management_policy' in written &&
    !('certificate' in written) &&
    equal(ctx.before?.certificate_management_policy, policy) &&
    !jobFailed(values.certificate_management_status)
  ) {
    return;
  }
  if (!ctx.creating && isPlainObject(written.certificate_management_policy) && !('certificate' in written)) {
    if ('certificate' in values) values.certificate = null;
  }
  if (!ctx.creating && typeof written.certificate === 'string') {
    values.certificate_management_policy = null;
  }
  if (
    !isPlainObject(values.certificate_management_policy) &&
    isServiceIssued(ctx.account, values.certificate)
  ) {
    values.certificate = null;
  }
  if (!ctx.creating && !('certificate_management_policy' in written) && !('certificate' in written)) return;
  values.certificate_management_status = isPlainObject(values.certificate_management_policy)
    ? {
        renews_at: null,
        provisioning_job: {
          error_code: null,
          msg: 'certificate provisioning in progress',
          started_at: ctx.account.timestamp(),
          retries_at: null,
        },
      }
    : null;
}

const modulesOf = derivedOnce(moduleFields);

/** Fills a module's read-only members, when it has any. */
export function deriveModule(
  module: ModuleDescriptor,
  value: Record<string, unknown>,
  ownerUri: string,
): void {
  moduleBehaviour.get(module.name)?.derive(value, `${ownerUri}/${module.name}`);
}

/**
 * Computes the service-owned members of `values` in place. Returns the plain token when the kind
 * hands one out (create only); only its hash is kept.
 */
export function deriveValues(
  d: KindDescriptor,
  values: Record<string, unknown>,
  hidden: Record<string, unknown>,
  ctx: DeriveContext,
): string | undefined {
  if (ctx.creating && 'owner_id' in d.fields) deriveOwner(values, ctx);
  if (ctx.creating) derivePem(d, values, ctx.account.answers);
  if ('certificate_management_policy' in d.fields) deriveCertificateManagement(values, ctx);
  kindBehaviour[d.kind]?.derive?.(values, ctx);
  for (const [name, module] of modulesOf(d)) {
    const value = values[name];
    if (isPlainObject(value) && name in ctx.written) deriveModule(module, value, ctx.uri);
  }
  if (ctx.creating && d.tokenField !== undefined) {
    const token = newToken();
    hidden.token_hash = hashToken(token);
    return token;
  }
  return undefined;
}
