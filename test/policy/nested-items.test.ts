/**
 * `on: object` rules see the entry as written, its nested items included (docs/traffic-policy.md
 * "Kinds and nested items"); a kind the rules do not know is named with the kinds there are.
 */
import { expect, it } from 'vitest';
import { startCliAccount } from '../safety/support.js';

const rules = `version: 1
rules:
  - name: no-open-rules
    on: object
    kinds: [ip_policies]
    expression: "!has(object.rules) || object.rules.all(r, r.cidr != '0.0.0.0/0')"
    message: a policy never allows the whole internet
  - name: routes-authenticate
    on: object
    kinds: [https_edges]
    expression: "!has(object.routes) || object.routes.all(r, has(r.oidc) || has(r.oauth) || has(r.basic_auth))"
    message: every route authenticates
    severity: warning
`;

const config = `version: 1
scope: nested
ip_policies:
  office:
    description: Office
    rules:
      - { cidr: 203.0.113.0/24, action: allow }
  open:
    description: Everyone
    rules:
      - { cidr: 198.51.100.0/24, action: allow }
      - { cidr: 0.0.0.0/0, action: allow }
reserved_domains:
  web: { domain: web.example.com }
https_edges:
  web:
    hostports: ['web.example.com:443']
    routes:
      - match_type: exact_path
        match: /
        backend: { backend: page }
backends:
  page:
    http_response: { status_code: 200, body: ok }
`;

it('object.rules and object.routes hold the nested items, so a rule judges the list', async () => {
  await using account = await startCliAccount();
  await account.write('account/a.yaml', config);
  await account.write('policies/rules.yaml', rules);
  const run = await account.acctsync(['validate', 'account', '--policy', 'policies']);
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr).toMatch(
    /account\/a\.yaml:8:3: error: policy rule no-open-rules: a policy never allows the whole internet \(at ip_policies\/open\)/,
  );
  expect(run.stderr).not.toMatch(/a\.yaml:4:3: error/);
  expect(run.stderr).toMatch(
    /account\/a\.yaml:16:3: warning: policy rule routes-authenticate: every route authenticates \(at https_edges\/web\)/,
  );
});

it('an unknown kind lists the kinds, the nested ones included', async () => {
  await using account = await startCliAccount();
  await account.write('account/a.yaml', 'version: 1\nscope: nested\n');
  await account.write(
    'policies/rules.yaml',
    'version: 1\nrules:\n  - name: r\n    on: object\n    kinds: [routes]\n    expression: "true"\n    message: m\n',
  );
  const run = await account.acctsync(['validate', 'account', '--policy', 'policies']);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('error: unknown kind routes');
  expect(run.stderr).toMatch(/hint: the kinds are .*ip_policy_rules.*https_edge_routes/);
});
