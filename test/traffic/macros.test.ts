/**
 * The platform's macros docs/traffic-policy.md says the offline evaluation gives their effect, each
 * evaluated as a rule would, and one it says is not modelled answering unknown, never a value.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { checkPolicyExpression } from '../../src/traffic-policy/index.js';
import { EvaluationStoppedError, expressionLimits, ExpressionEvaluator } from '../../src/traffic/index.js';

const modelled: readonly [string, string][] = [
  ['inCidrRange', "inCidrRange(conn.client_ip, '10.0.0.0/8')"],
  ['inCidrRanges', "inCidrRanges(conn.client_ip, ['192.0.2.0/24', '10.0.0.0/8'])"],
  ['isPrivateIp', "conn.client_ip.isPrivateIp() && !'8.8.8.8'.isPrivateIp() && 'fd00::1'.isPrivateIp()"],
  ['lower', "conn.tls.sni.lower() == 'db.example.com'"],
  ['upper', "conn.tls.sni.upper() == 'DB.EXAMPLE.COM'"],
  ['reverse', "'abc'.reverse() == 'cba'"],
  ['charAt', "'abc'.charAt(1) == 'b'"],
  ['replace', "'a-b-c'.replace('-', '+') == 'a+b+c' && 'a-b-c'.replace('-', '+', 1) == 'a+b-c'"],
  ['isJson', "'{\"a\": 1}'.isJson() && !'{a'.isJson()"],
  ['base64.decode', "base64.decode('YWI=') == b'ab'"],
  ['base64.encode', "base64.encode(b'ab') == 'YWI='"],
  ['decodeBase64', "'YWI='.decodeBase64() == 'ab'"],
  ['encodeBase64', "'ab'.encodeBase64() == 'YWI='"],
  ['lists.range', 'lists.range(3) == [0, 1, 2]'],
  ['distinct', '[1, 1, 2].distinct() == [1, 2]'],
  ['matches (RE2)', "conn.client_ip.matches('^10\\\\.')"],
];

const expressions = new ExpressionEvaluator();
afterAll(() => expressions.close());
const variables = { conn_client_ip: '10.1.2.3', conn_tls_sni: 'DB.Example.com' };

describe('the macros evaluated offline', () => {
  it.each(modelled)('%s has its documented effect', async (_name, expression) => {
    expect(checkPolicyExpression(expression)).toBeUndefined();
    expect(await expressions.evaluate(expression, variables, 'the test')).toEqual({
      kind: 'value',
      value: true,
    });
  });

  it.each([
    ['hash.sha256', "hash.sha256('a') == ''"],
    ['rand.int', 'rand.int() == 4'],
  ])('%s is not modelled: the result is unknown', async (name, expression) => {
    expect(checkPolicyExpression(expression)).toBeUndefined();
    const result = await expressions.evaluate(expression, variables, 'the test');
    expect(result).toEqual({ kind: 'unknown', reason: `it failed: ${name} is not modelled offline` });
  });

  it.each([
    [
      'lists.range past its limit',
      `lists.range(${expressionLimits.rangeLength + 1}).size() > 0`,
      `it failed: lists.range past ${expressionLimits.rangeLength} elements is not evaluated offline`,
    ],
    [
      'comprehensions nested past the limit',
      '[1].all(a, [2].all(b, [3].all(c, a + b + c > 0)))',
      'it is not evaluated offline: it nests 3 comprehensions, past the limit of 2',
    ],
    [
      'an expression past the size limit',
      `conn.client_ip in [${Array.from({ length: 1_000 }, (_, i) => `'10.0.${i >> 8}.${i & 255}'`).join(', ')}]`,
      'it is not evaluated offline: it has 1004 syntax nodes, past the limit of 1000',
    ],
  ])('%s: the result is unknown, by the count alone', async (_name, expression, reason) => {
    expect(checkPolicyExpression(expression)).toBeUndefined();
    expect(await expressions.evaluate(expression, variables, 'the test')).toEqual({
      kind: 'unknown',
      reason,
    });
  });

  it('within the limits, nested comprehensions are evaluated', async () => {
    const expression = '[1, 2].all(a, [3].exists(b, a + b > 3))';
    expect(await expressions.evaluate(expression, variables, 'the test')).toEqual({
      kind: 'value',
      value: true,
    });
  });

  it('a safety net that fires stops the run with an error, never an outcome', async () => {
    const stopped = new ExpressionEvaluator({ runMs: 0 });
    try {
      const run = stopped.evaluate("conn.client_ip == '10.1.2.3'", variables, 'rule r');
      await expect(run).rejects.toBeInstanceOf(EvaluationStoppedError);
      await expect(run).rejects.toThrow(
        "the offline traffic evaluation was stopped at rule r: the run's expressions together ran longer than the safety limit of 0 s",
      );
    } finally {
      await stopped.close();
    }
  });
});
