/**
 * The build precompiles the structural validator so commands do not compile the schema at start.
 * It must load as a real ES module (no CommonJS globals) and judge files exactly as the schema does.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ajvOptions } from '../../src/config/schema-check.js';
import { buildConfigSchema } from '../../src/config/schema.js';

const generated = fileURLToPath(new URL('../../dist/config/schema-validator.generated.js', import.meta.url));

const samples: unknown[] = [
  {
    version: 1,
    ip_policies: { office: { description: 'x', rules: [{ cidr: '10.0.0.0/8', action: 'allow' }] } },
  },
  { version: 1, event_subscriptions: { audit: { description: 'é'.repeat(256) } } },
  { version: 1, backends: { a: { http_response: { status_code: 'ok' } } } },
  { version: 2, unknown_kind: {} },
];

describe('precompiled structural validator', () => {
  it('loads as an ES module and reports exactly what the schema reports', () => {
    // A separate plain Node process: the test runner's module loader would forgive a `require`.
    const script = `
      const { default: validate } = await import(${JSON.stringify(generated)});
      const samples = JSON.parse(process.argv[1]);
      console.log(JSON.stringify(samples.map((s) => (validate(s), (validate.errors ?? []).map((e) => e.instancePath + ' ' + e.keyword)))));
    `;
    const out = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', script, JSON.stringify(samples)],
      {
        encoding: 'utf8',
      },
    );
    const compiled = new Ajv2020(ajvOptions).compile(buildConfigSchema());
    const expected = samples.map(
      (s) => (compiled(s), (compiled.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`)),
    );
    expect(JSON.parse(out)).toEqual(expected);
    expect(expected[0]).toEqual([]);
    expect(expected[1]).toContain('/event_subscriptions/audit/description maxLength');
  });
});
