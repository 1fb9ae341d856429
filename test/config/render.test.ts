import { describe, expect, it } from 'vitest';
import { renderDiagnostic, renderGithubAnnotation, type Diagnostic } from '../../src/config/index.js';

const d: Diagnostic = {
  severity: 'error',
  file: 'account/a,b:c%.yaml',
  line: 3,
  column: 5,
  path: 'ip_policies.office.descripton',
  message: 'unknown field descripton\n100% wrong\r',
  hint: 'did you mean description?',
};

describe('renderers', () => {
  it('escapes GitHub workflow command data and properties', () => {
    expect(renderGithubAnnotation(d)).toBe(
      '::error file=account/a%2Cb%3Ac%25.yaml,line=3,col=5::ip_policies.office.descripton: unknown field descripton%0A100%25 wrong%0D (did you mean description?)',
    );
  });

  it('draws a code frame with a caret under the column', () => {
    const text = 'version: 1\nip_policies:\n  office:\n    descripton: x\n';
    expect(renderDiagnostic({ ...d, file: 'a.yaml', line: 4, message: 'unknown field descripton' }, text))
      .toMatchInlineSnapshot(`
        "a.yaml:4:5: error: unknown field descripton (at ip_policies.office.descripton)
          2 | ip_policies:
          3 |   office:
        > 4 |     descripton: x
            |     ^
          hint: did you mean description?"
      `);
  });

  it('masks a literal secret with a fixed width, whatever its length, the caret still under its column', () => {
    // The caret points at the comment after the secret; the header's column is the source's.
    const frame = (secret: string): string => {
      const text = `api_keys:\n  ci:\n    token: ${secret} # x\n`;
      const start = text.indexOf(secret);
      const column = (text.split('\n')[2] ?? '').indexOf('#') + 1;
      const at = { ...d, file: 'a.yaml', line: 3, column, message: 'here' };
      return renderDiagnostic(at, text, [{ start, end: start + secret.length }]).replace(/^.*\n/, '');
    };
    expect(frame('short')).toBe(frame('a-much-longer-secret-value-0123456789'));
    expect(frame('short')).toMatchInlineSnapshot(`
      "  1 | api_keys:
        2 |   ci:
      > 3 |     token: ******** # x
          |                     ^
        hint: did you mean description?"
    `);
  });

  it('masks each line of a multi-line secret with the same fixed width, line numbers kept', () => {
    const secret = '-----BEGIN KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END KEY-----';
    const text = `key: |\n${secret}\nnext: 1\n`;
    const start = text.indexOf(secret);
    const at = { ...d, file: 'a.yaml', line: 5, column: 1, message: 'here' };
    expect(renderDiagnostic(at, text, [{ start, end: start + secret.length }])).toMatchInlineSnapshot(`
      "a.yaml:5:1: error: here (at ip_policies.office.descripton)
        3 | ********
        4 | ********
      > 5 | next: 1
          | ^
        hint: did you mean description?"
    `);
  });
});
