/**
 * The platform's macros docs/traffic-policy.md says the offline evaluation gives their effect, each
 * evaluated as a rule would, and one it says is not modelled answering unknown, never a value.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { checkPolicyExpression } from '../../src/traffic-policy/index.js';
import { ExpressionEvaluator } from '../../src/traffic/index.js';

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
    expect(await expressions.evaluate(expression, variables)).toEqual({ kind: 'value', value: true });
  });

  it.each([
    ['hash.sha256', "hash.sha256('a') == ''"],
    ['rand.int', 'rand.int() == 4'],
  ])('%s is not modelled: the result is unknown', async (name, expression) => {
    expect(checkPolicyExpression(expression)).toBeUndefined();
    const result = await expressions.evaluate(expression, variables);
    expect(result).toEqual({ kind: 'unknown', reason: `it failed: ${name} is not modelled offline` });
  });
});
