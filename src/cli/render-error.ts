/** The one place errors become text for a person (and, for config problems, annotations for CI). */
import { NetworkError, RequestError } from '../api/index.js';
import { ConfigError } from '../config/index.js';
import { describeSystemError, isSystemError, UserError } from '../errors.js';
import { inertLines } from '../inert.js';
import { diagnosticAnnotations, diagnosticFrames } from './config-report.js';
import { exitStatus } from './exit-codes.js';

interface RenderedError {
  /** For stderr. */
  readonly text: string;
  /** Workflow annotations under GitHub Actions, printed before `text` on stderr. */
  readonly annotations: readonly string[];
  readonly exitCode: number;
}

/**
 * Messages carry names from the config and the API's own words: whatever the error, its text is
 * made inert for the terminal and the CI log.
 */
export function renderError(err: unknown, env: NodeJS.ProcessEnv = {}): RenderedError {
  const rendered = renderRaw(err, env);
  return { ...rendered, text: inertLines(rendered.text) };
}

function renderRaw(err: unknown, env: NodeJS.ProcessEnv): RenderedError {
  if (err instanceof ConfigError) {
    const frames = diagnosticFrames(err.diagnostics, err.secretSpans);
    return {
      text: [`error: ${err.message}`, ...frames, ...err.details].join('\n'),
      annotations: diagnosticAnnotations(err.diagnostics, env),
      exitCode: exitStatus.error,
    };
  }
  if (err instanceof UserError) {
    return {
      text: [`error: ${err.message}`, ...err.details].join('\n'),
      annotations: [],
      exitCode: exitStatus.error,
    };
  }
  // The client's messages name the request only and are redacted: safe to print as they are.
  if (err instanceof RequestError) {
    return { text: `error: ${err.message}${networkHint(err)}`, annotations: [], exitCode: exitStatus.error };
  }
  // A file or socket the machine refused where no layer said what acctsync was doing: still the
  // user's or the machine's to fix, never a bug report.
  if (isSystemError(err)) {
    const target = typeof err.path === 'string' ? ` ${err.path}` : '';
    return {
      text: `error: cannot ${err.syscall ?? 'use'}${target}: ${describeSystemError(err)}`,
      annotations: [],
      exitCode: exitStatus.error,
    };
  }
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  return {
    text: `internal error: this is a bug in acctsync, please report it with the lines below.\n${detail}`,
    annotations: [],
    exitCode: exitStatus.internal,
  };
}

/** What to check when the API could not be reached, by the network error's code. */
const networkHints: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing accepts connections at the API address: check --api-url (or SVC_API_URL)',
  ENOTFOUND: 'the API host name does not resolve: check --api-url (or SVC_API_URL) and DNS',
  EAI_AGAIN: 'the API host name could not be resolved now: check DNS and the network, then run again',
  EHOSTUNREACH: 'the API host cannot be reached: check the network, then run again',
  ENETUNREACH: 'the network is unreachable: check the network, then run again',
  ECONNRESET: 'the connection was cut: check the network and any proxy, then run again',
};

function networkHint(err: RequestError): string {
  const hint = err instanceof NetworkError ? networkHints[err.code] : undefined;
  return hint === undefined ? '' : `; ${hint}`;
}
