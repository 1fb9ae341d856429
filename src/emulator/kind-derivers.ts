/**
 * Members the spec has the service compute for one kind or module alone (assigned addresses and DNS
 * targets, lower-cased header names, SAML's endpoints); `kind-behaviour.ts` says whose each is.
 */
import { regions } from '../resources/index.js';
import { isPlainObject } from '../plain-object.js';
import type { DeriveContext } from './derive-context.js';
import { samlSigningCertificatePem } from './saml-certificate.js';
import { acmeChallengeTarget, cnameTarget, isPlatformSubdomain, nsTargets, tcpAddress } from './platform.js';

/** The spec: response header names come back lower-case. */
export function lowerCaseHeaderNames(values: Record<string, unknown>): void {
  if (isPlainObject(values.headers)) {
    values.headers = Object.fromEntries(Object.entries(values.headers).map(([k, v]) => [k.toLowerCase(), v]));
  }
}

/** A reserved address gets its TCP address in its region when created. */
export function assignTcpAddress(values: Record<string, unknown>, ctx: DeriveContext): void {
  if (ctx.creating) values.addr = tcpAddress(String(values.region));
}

/** A custom reserved domain gets the DNS targets its owner must point at the service. */
export function assignDomainTargets(values: Record<string, unknown>, ctx: DeriveContext): void {
  if (!ctx.creating) return;
  const domain = String(values.domain);
  const platform = isPlatformSubdomain(domain);
  values.cname_target = platform ? null : cnameTarget();
  // Only wildcard custom domains need the ACME challenge delegated to issue certificates.
  values.acme_challenge_cname_target =
    !platform && domain.startsWith('*.') && isPlainObject(values.certificate_management_policy)
      ? acmeChallengeTarget()
      : null;
}

/** An agent ingress gets the name servers to delegate to and its domain in each region. */
export function assignIngressTargets(values: Record<string, unknown>, ctx: DeriveContext): void {
  if (!ctx.creating) return;
  const domain = String(values.domain);
  values.ns_targets = nsTargets;
  values.region_domains = regions.map((r) => `tunnel.${r}.${domain}`);
}

/** SAML's read-only members: the service provider's endpoints under the module's own URI. */
export function deriveSamlMembers(value: Record<string, unknown>, moduleUri: string): void {
  value.entity_id = `${moduleUri}/metadata`;
  value.metadata_url = `${moduleUri}/metadata`;
  value.assertion_consumer_service_url = `${moduleUri}/acs`;
  value.single_logout_url = `${moduleUri}/slo`;
  value.request_signing_certificate_pem = samlSigningCertificatePem;
  value.idp_metadata_url = '';
}
