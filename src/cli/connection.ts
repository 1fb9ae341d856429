/**
 * Which API a command talks to: a real one (`--api-url` / `SVC_API_URL` with a key from
 * `SVC_API_KEY` or `--api-key-file`), or the embedded emulator, the default when neither is set
 * outside CI, whose state lives in `.acctsync/embedded.json` so consecutive commands see the same
 * account. An empty variable counts as unset.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiClient, defaultConcurrency, describeRetry, type ApiClientOptions } from '../api/index.js';
import { defaultApiKeyEnv, defaultApiUrlEnv, type EnvironmentSettings } from '../config/index.js';
import { isSystemError, systemUserError, UserError } from '../errors.js';
import { ApiKeyFile, type KeyRotationCause } from './api-key-file.js';
import { inert } from '../inert.js';
import { parseDuration } from '../duration.js';
import { ciSignal } from './ci.js';
import { defaultDeadlineMs } from './shared-flags.js';

export const embeddedUrl = 'embedded';
/** The embedded emulator's bootstrap token: it only listens on loopback for the command's lifetime. */
const embeddedToken = 'embedded-local-token';

export interface ConnectionFlags {
  readonly 'api-url'?: string | undefined;
  readonly 'api-key-file'?: string | undefined;
  readonly 'rate-limit'?: string | undefined;
  readonly timeout?: string | undefined;
  /** Only commands that include `deadlineOptions` (shared-flags.ts); without it there is no deadline. */
  readonly deadline?: string | undefined;
}

export interface Connection {
  readonly client: ApiClient;
  /** Where requests go (the emulator's loopback URL when embedded). */
  readonly url: string;
  readonly embedded: boolean;
  close(): Promise<void>;
}

interface ConnectionSettings {
  readonly flags: ConnectionFlags;
  readonly env: NodeJS.ProcessEnv;
  /** Directory holding `.acctsync/` for the embedded state; the working directory by default. */
  readonly cwd?: string;
  readonly client?: Partial<Omit<ApiClientOptions, 'baseUrl' | 'apiKey'>>;
  /** Where the embedded announcement and retry reports go; stderr by default so stdout stays parseable. */
  readonly announce?: (line: string) => void;
  /** One-shot commands: apply `--deadline` or {@link defaultDeadlineMs}. */
  readonly deadline?: boolean;
  /**
   * The environment whose account to reach: its variables name the URL and key, and its embedded
   * emulator keeps a state file of its own, so that each environment is a separate local account.
   */
  readonly environment?: EnvironmentSettings;
  /**
   * Told when `--api-key-file` holds a new key; given, the file is also read again every few
   * seconds (a daemon's key rotates under it). Without it the file is read again only after a 401.
   */
  readonly onKeyRotated?: (cause: KeyRotationCause) => void;
  /**
   * An account command (unlock, forget, export, events, sessions): with no account configured it
   * refuses instead of asking the embedded emulator, which runs only when `--api-url embedded`
   * names it. Only plan, sync and watch fall back to it, for a first run with no account at all.
   */
  readonly accountCommand?: string;
}

/**
 * Client options for running `parallelism` operations at once: a request slot (and a connection)
 * for each, never fewer than the client's default, so that `--parallelism 32` really has 32
 * requests in flight instead of queueing behind the default 8.
 */
export function clientOptionsFor(parallelism: number): { readonly concurrency: number } {
  return { concurrency: Math.max(parallelism, defaultConcurrency) };
}

/** `120/m` or `120` → requests per minute. */
function parseRateLimit(text: string): number {
  const match = /^(\d+)(?:\/m(?:in)?)?$/.exec(text.trim());
  const rate = match ? Number(match[1]) : NaN;
  if (!Number.isInteger(rate) || rate <= 0) {
    throw new UserError(`--rate-limit ${text} is not a rate: write requests per minute, like 120/m`);
  }
  return rate;
}

/** A setting's value; an empty one counts as unset, and its name is kept so the message can say so. */
function setting(value: string | undefined, name: string, empty: string[]): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() !== '') return value;
  empty.push(name);
  return undefined;
}

/** The API URL that `--api-url`, else `urlVariable`, gives; an empty one counts as unset (named in `empty`). */
function givenApiUrl(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv,
  urlVariable: string,
  empty: string[] = [],
): string | undefined {
  return flags['api-url'] === undefined
    ? setting(env[urlVariable], urlVariable, empty)
    : setting(flags['api-url'], '--api-url', empty);
}

/** `SVC_API_URL is empty` lines, for the messages about a missing account. */
function emptyNotes(empty: readonly string[]): string[] {
  return empty.map((name) => `${name} is set but empty, which counts as unset.`);
}

export async function openConnection(settings: ConnectionSettings): Promise<Connection> {
  const { flags, env } = settings;
  const urlVariable = settings.environment?.apiUrlEnv ?? defaultApiUrlEnv;
  const keyVariable = settings.environment?.apiKeyEnv ?? defaultApiKeyEnv;
  const empty: string[] = [];
  const url = givenApiUrl(flags, env, urlVariable, empty);
  const keyFile =
    flags['api-key-file'] === undefined
      ? undefined
      : await ApiKeyFile.open(flags['api-key-file'], settings.onKeyRotated);
  const key = keyFile?.current() ?? setting(env[keyVariable], keyVariable, empty);
  const ratePerMinute = flags['rate-limit'] === undefined ? undefined : parseRateLimit(flags['rate-limit']);
  const announce = settings.announce ?? ((line: string) => process.stderr.write(`${line}\n`));
  const clientOptions = {
    onRetry: (event: Parameters<typeof describeRetry>[0]) =>
      announce(`acctsync: ${inert(describeRetry(event))}`),
    ...settings.client,
    ...(ratePerMinute === undefined ? {} : { ratePerMinute }),
    ...(flags.timeout === undefined ? {} : { timeoutMs: parseDuration(flags.timeout, '--timeout') }),
    ...(settings.deadline === true
      ? {
          deadlineMs:
            flags.deadline === undefined ? defaultDeadlineMs : parseDuration(flags.deadline, '--deadline'),
        }
      : {}),
  };

  if (url === undefined) {
    if (key !== undefined) {
      throw new UserError('an API key is set but no API URL', {
        details: [
          ...emptyNotes(empty),
          `Set ${urlVariable} (or --api-url) to the API address, or unset ${keyVariable} to use the embedded emulator.`,
        ],
      });
    }
    // Under CI the likelier cause is a variable the job cannot see: that message says so first.
    refuseSilentEmulator(env, urlVariable, keyVariable, empty);
    if (settings.accountCommand !== undefined)
      refuseNoAccount(settings.accountCommand, urlVariable, keyVariable, empty);
    for (const note of emptyNotes(empty)) announce(`acctsync: ${note}`);
  }
  if (url === undefined || url === embeddedUrl) {
    return openEmbedded(settings, clientOptions, urlVariable, keyVariable);
  }
  if (key === undefined) {
    throw new UserError(`no API key for ${url}`, {
      details: [
        ...emptyNotes(empty),
        `Set ${keyVariable}, or pass --api-key-file with a file holding the key.`,
      ],
    });
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Named by where it came from, never shown: a variable swapped by mistake may hold the key.
    const source = flags['api-url'] === undefined ? urlVariable : '--api-url';
    throw new UserError(`the API URL in ${source} is not a valid URL`, {
      details: [`Set ${source} to the API address, like https://api.example.com.`],
    });
  }
  const client = new ApiClient({
    ...clientOptions,
    baseUrl: parsed.href.replace(/\/$/, ''),
    apiKey: key,
    ...(keyFile === undefined ? {} : { keySource: keyFile }),
  });
  if (settings.onKeyRotated !== undefined) keyFile?.watch();
  return {
    client,
    url: parsed.origin,
    embedded: false,
    async close() {
      keyFile?.close();
      await client.close();
    },
  };
}

/** An account command names the account it acts on: the emulator only on purpose. */
function refuseNoAccount(
  command: string,
  urlVariable: string,
  keyVariable: string,
  empty: readonly string[],
): never {
  throw new UserError(
    `${command}: no account configured: neither ${urlVariable} nor ${keyVariable} has a value`,
    {
      details: [
        ...emptyNotes(empty),
        `Set ${urlVariable} to the API address and ${keyVariable} (or --api-key-file) to its key. Nothing was changed.`,
        `To act on the embedded emulator's local account instead, pass --api-url ${embeddedUrl}.`,
      ],
    },
  );
}

/**
 * Under CI no account configured is a mistake (a misspelt variable, a secret the job cannot see),
 * never a request for a throwaway account: a plan or sync against it would look like success.
 */
function refuseSilentEmulator(
  env: NodeJS.ProcessEnv,
  urlVariable: string,
  keyVariable: string,
  empty: readonly string[],
): void {
  const ci = ciSignal(env);
  if (ci === undefined) return;
  throw new UserError(
    `no account configured: neither ${urlVariable} nor ${keyVariable} has a value (${ci}: this is CI)`,
    {
      details: [
        ...emptyNotes(empty),
        `Set ${urlVariable} to the API address and ${keyVariable} (or --api-key-file) to its key: check the variable names and that this job can read them.`,
        `Under CI the embedded emulator runs only when asked for: --api-url ${embeddedUrl}.`,
      ],
    },
  );
}

async function openEmbedded(
  settings: ConnectionSettings,
  clientOptions: Partial<Omit<ApiClientOptions, 'baseUrl' | 'apiKey'>>,
  urlVariable: string,
  keyVariable: string,
): Promise<Connection> {
  const dir = join(settings.cwd ?? process.cwd(), '.acctsync');
  const name = settings.environment?.name;
  const dataFile = join(dir, name === undefined ? 'embedded.json' : `embedded-${name}.json`);
  const { startEmulator } = await import('../emulator/index.js');
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw isSystemError(err) ? systemUserError(`use the embedded emulator's state in ${dataFile}`, err) : err;
  }
  const emulator = await startEmulator({ host: '127.0.0.1', port: 0, token: embeddedToken, dataFile });
  (settings.announce ?? ((line: string) => process.stderr.write(`${line}\n`)))(
    `acctsync: using the embedded emulator (state in ${dataFile}); set ${urlVariable} and ${keyVariable} for a real account`,
  );
  const client = new ApiClient({ ...clientOptions, baseUrl: emulator.url, apiKey: emulator.token });
  return {
    client,
    url: emulator.url,
    embedded: true,
    async close() {
      await client.close();
      await emulator.close();
    },
  };
}
