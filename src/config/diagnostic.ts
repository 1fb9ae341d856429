/**
 * Problems found in the desired-state files, as data. The loader collects every one of them instead
 * of stopping at the first, and the CLI renders them once, at the edge.
 */
import { counted } from '../count.js';
import { UserError } from '../errors.js';

/** A path inside one YAML document: map keys and sequence indexes from the root. */
export type DocPath = readonly (string | number)[];

/** One problem (or warning) at a place in a file. */
export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  /** The file, relative to the working directory when it lies below it. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  /** Where the value sits in the document, dotted (`backends.app.tunnel_group.labels`); '' for the file. */
  readonly path: string;
  readonly message: string;
  readonly expected?: string;
  readonly found?: string;
  /** How to fix it, when there is something useful to say ("did you mean office?"). */
  readonly hint?: string;
}

/** A problem with a file as a whole (missing, unparsed, a link it may not follow), at its start. */
export function fileDiagnostic(
  file: string,
  message: string,
  more: { readonly severity?: Diagnostic['severity']; readonly hint?: string } = {},
): Diagnostic {
  return { severity: 'error', file, line: 1, column: 1, path: '', message, ...more };
}

/** A diagnostic before it has a position: the document path locates it later. */
export interface Finding {
  readonly severity?: 'error' | 'warning';
  readonly path: DocPath;
  readonly message: string;
  readonly expected?: string;
  readonly found?: string;
  readonly hint?: string;
  /** Point at the key of the member rather than its value (unknown and read-only members). */
  readonly atKey?: boolean;
  /** Point at this character of the string value at `path` (a token of a CEL expression). */
  readonly offset?: number;
  /**
   * Not a problem but a value this load could not check (an `{env}` variable not set, a `{file}`
   * not there), when the load was asked to go on without it: named here, `{env: NAME}`.
   */
  readonly unchecked?: string;
}

/** `backends.app.weighted.backends["a.b"]`-style dotted path for messages. */
function formatDocPath(path: DocPath): string {
  return path
    .map((seg, i) => {
      if (typeof seg === 'number') return `[${seg}]`;
      const plain = /^[A-Za-z0-9_-]+$/.test(seg);
      if (!plain) return `[${JSON.stringify(seg)}]`;
      return i === 0 ? seg : `.${seg}`;
    })
    .join('');
}

/** A finding whose line and column are known, as the diagnostic of `file`. */
export function placedDiagnostic(
  file: string,
  f: Finding & { readonly line: number; readonly column: number },
): Diagnostic {
  return {
    severity: f.severity ?? 'error',
    file,
    line: f.line,
    column: f.column,
    path: formatDocPath(f.path),
    message: f.message,
    ...(f.expected !== undefined ? { expected: f.expected } : {}),
    ...(f.found !== undefined ? { found: f.found } : {}),
    ...(f.hint !== undefined ? { hint: f.hint } : {}),
  };
}

/**
 * Thrown when the desired state does not load; carries every diagnostic (warnings included) and
 * where literal secrets sit in the files, so the CLI edge can render code frames that mask them.
 */
export class ConfigError extends UserError {
  readonly diagnostics: readonly Diagnostic[];
  /** Text spans of literal secrets by file (`SecretSpans` of the loader). */
  readonly secretSpans: Readonly<Record<string, readonly { start: number; end: number }[]>>;

  constructor(
    diagnostics: readonly Diagnostic[],
    options: {
      secretSpans?: Readonly<Record<string, readonly { start: number; end: number }[]>>;
      cause?: unknown;
    } = {},
  ) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    super(
      `the desired state is invalid: ${counted(errors, 'error', 'errors')}`,
      options.cause === undefined ? {} : { cause: options.cause },
    );
    this.diagnostics = diagnostics;
    this.secretSpans = options.secretSpans ?? {};
  }
}
