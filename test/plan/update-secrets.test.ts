/**
 * An update that sets a module whole (a route switched from oauth to oidc) shows it as a create
 * would: the config's members only, no service default it does not set, and its secret as
 * `(sensitive)` with the JSON's `sensitive` flag, in every rendering and in a saved plan, which
 * never holds the secret and still applies.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startCliAccount } from '../safety/support.js';

const config = (module: string): string => `version: 1
scope: switch
reserved_domains:
  web: { domain: web.example.com }
https_edges:
  web:
    hostports: ['web.example.com:443']
    routes:
      - match_type: exact_path
        match: /team
${module}`;

const oauth = `        oauth:
          provider:
            provider_a:
              client_id: team-app
              client_secret: { env: OAUTH_SECRET }
`;
const oidc = `        oidc:
          issuer: https://id.example.com
          client_id: team-app
          client_secret: { env: OIDC_SECRET }
`;

interface Change {
  readonly path: string[];
  readonly after?: unknown;
  readonly sensitive?: boolean;
}

it('switching a route from oauth to oidc shows client_secret as (sensitive) and no defaults, everywhere', async () => {
  await using account = await startCliAccount();
  const secrets = {
    OAUTH_SECRET: `oauth-${randomBytes(8).toString('hex')}`,
    OIDC_SECRET: `oidc-${randomBytes(8).toString('hex')}`,
  };
  await account.write('account/edge.yaml', config(oauth));
  const synced = await account.acctsync(['sync', 'account'], secrets);
  expect(synced.code, synced.stderr).toBe(0);
  await account.write('account/edge.yaml', config(oidc));

  const text = await account.acctsync(['plan', 'account'], secrets);
  expect(text.code, text.stderr).toBe(0);
  const added = /\+ oidc \{\n([\s\S]*?)\n\s+\}/
    .exec(text.stdout)?.[1]
    ?.split('\n')
    .map((l) => l.trim());
  // acctsync's own defaults, which it sends explicitly (#44: send what the reviewer saw), and what
  // the config writes; never a default only the service fills in (cookie_prefix).
  expect(added).toEqual([
    'enabled: true',
    'options_passthrough: false',
    'issuer: "https://id.example.com"',
    'client_id: "team-app"',
    'client_secret: (sensitive)',
  ]);

  const markdown = await account.acctsync(['plan', 'account', '--output', 'markdown'], secrets);
  expect(markdown.stdout).toContain('client_secret: (sensitive)');
  expect(markdown.stdout).not.toContain('cookie_prefix: "svc."\n!         issuer');

  const json = await account.acctsync(['plan', 'account', '--output', 'json', '--out', 'plan.json'], secrets);
  expect(json.code, json.stderr).toBe(0);
  const plan = JSON.parse(json.stdout) as { operations: Array<{ changes: Change[] }> };
  const change = plan.operations.flatMap((o) => o.changes).find((c) => c.path.join('.') === 'oidc');
  expect(change).toEqual({
    path: ['oidc'],
    after: {
      enabled: true,
      options_passthrough: false,
      issuer: 'https://id.example.com',
      client_id: 'team-app',
      client_secret: '(sensitive)',
    },
    sensitive: true,
  });

  const saved = await readFile(join(account.dir, 'plan.json'), 'utf8');
  for (const output of [text.stdout, markdown.stdout, json.stdout, saved]) {
    expect(output).not.toContain(secrets.OIDC_SECRET);
    expect(output).not.toContain(secrets.OAUTH_SECRET);
  }
  const applied = await account.acctsync(['apply', 'plan.json'], secrets);
  expect(applied.code, applied.stderr).toBe(0);
  const after = await account.acctsync(['plan', 'account', '--detailed-exitcode'], secrets);
  expect(after.code, after.stdout).toBe(0);
}, 120_000);
