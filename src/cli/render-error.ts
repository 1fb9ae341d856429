/** The one place errors become text for a person (and, for config problems, annotations for CI). */
import { RequestError } from '../api/index.js';
import { ConfigError } from '../config/index.js';
import { UserError } from '../errors.js';
import { diagnosticAnnotations, diagnosticFrames } from './config-report.js';

export interface RenderedError {
  /** For stderr. */
  readonly text: string;
  /** Workflow annotations under GitHub Actions, printed before `text` on stderr. */
  readonly annotations: readonly string[];
  readonly exitCode: number;
}

export function renderError(err: unknown, env: NodeJS.ProcessEnv = {}): RenderedError {
  if (err instanceof ConfigError) {
    const frames = diagnosticFrames(err.diagnostics, err.secretSpans);
    return {
      text: [`error: ${err.message}`, ...frames, ...err.details].join('\n'),
      annotations: diagnosticAnnotations(err.diagnostics, env),
      exitCode: err.exitCode,
    };
  }
  if (err instanceof UserError) {
    return {
      text: [`error: ${err.message}`, ...err.details].join('\n'),
      annotations: [],
      exitCode: err.exitCode,
    };
  }
  // The client's messages name the request only and are redacted: safe to print as they are.
  if (err instanceof RequestError) {
    return { text: `error: ${err.message}`, annotations: [], exitCode: err.exitCode };
  }
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  return {
    text: `internal error: this is a bug in acctsync, please report it with the lines below.\n${detail}`,
    annotations: [],
    exitCode: 70,
  };
}
