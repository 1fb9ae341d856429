/** Names the emulated platform hands out: its own domain, CNAME and NS targets, TCP addresses. */
import { randomBytes } from 'node:crypto';

/** Reserved domains under this suffix are the platform's own subdomains (no CNAME target). */
const PLATFORM_DOMAIN = 'svc-emulator.app';

/** A short random label for generated hostnames. */
function randomLabel(): string {
  return randomBytes(8).toString('hex');
}

export function isPlatformSubdomain(domain: string): boolean {
  const bare = domain.replace(/^\*\./, '').toLowerCase();
  return bare === PLATFORM_DOMAIN || bare.endsWith(`.${PLATFORM_DOMAIN}`);
}

export function cnameTarget(): string {
  return `${randomLabel()}.cname.${PLATFORM_DOMAIN}`;
}

export function acmeChallengeTarget(): string {
  return `${randomLabel()}.acme.${PLATFORM_DOMAIN}`;
}

/** An assigned TCP address in a region, `N.tcp.<region>.<platform>:<port>`. */
export function tcpAddress(region: string): string {
  const bytes = randomBytes(3);
  const host = (bytes[0] ?? 0) % 8;
  const port = 10_000 + ((((bytes[1] ?? 0) << 8) | (bytes[2] ?? 0)) % 55_000);
  return `${host}.tcp.${region}.${PLATFORM_DOMAIN}:${port}`;
}

export const nsTargets = [1, 2, 3, 4].map((n) => `ns${n}.${PLATFORM_DOMAIN}`);

/** A random bearer token, as the create response shows it once. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The service's timestamps: RFC 3339 in UTC to the second (`2026-11-28T17:58:24Z`). Joined into
 * one flat string: a slice and a concatenation would keep the whole ISO text and two more strings
 * alive in every record that holds it.
 */
export function serviceTime(date: Date): string {
  return [date.toISOString().slice(0, -5), 'Z'].join('');
}
