import { readFileSync } from 'node:fs';

let cached: string | undefined;

function readVersion(): string {
  try {
    // Both src/api/version.ts (vitest) and dist/api/version.js (built) sit two levels below the root.
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const pkg = JSON.parse(text) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    // A missing version must not make the client unusable; it only shows in User-Agent.
    return 'unknown';
  }
}

/** acctsync's version from package.json, read once. */
export function packageVersion(): string {
  cached ??= readVersion();
  return cached;
}
