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
});
