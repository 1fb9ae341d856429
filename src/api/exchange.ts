import type { Dispatcher } from 'undici';
import type { ResponseHeaders } from './client-options.js';
import type { RawResponse } from './response.js';

/**
 * One request and its whole response, as undici's dispatch handler: status, headers and the body
 * as text, settled once the last byte is read. It does what `request()` and `body.text()` do for a
 * client that always reads the whole body (no response stream per attempt), and takes an abort
 * from the attempt's timeout or signal instead of listening on a signal of its own.
 */
export class Exchange implements Dispatcher.DispatchHandler {
  /** Settles with the response once its body is read, or with the error that ended the attempt. */
  readonly response: Promise<RawResponse>;
  #resolve!: (response: RawResponse) => void;
  #reject!: (err: Error) => void;
  #controller: Dispatcher.DispatchController | undefined;
  /** An abort that came before undici started the request: applied as soon as it does. */
  #abortReason: Error | undefined;
  #status = 0;
  #headers: ResponseHeaders = {};
  #chunks: Buffer[] = [];
  #length = 0;
  #settled = false;

  constructor() {
    this.response = new Promise<RawResponse>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** Ends the attempt with `reason` (undici rejects it with that error); harmless once settled. */
  abort(reason: Error): void {
    if (this.#settled) return;
    if (this.#controller === undefined) this.#abortReason ??= reason;
    else this.#controller.abort(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#abortReason !== undefined) controller.abort(this.#abortReason);
    else this.#controller = controller;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: ResponseHeaders,
  ): void {
    // An informational (1xx) response precedes the real one.
    if (statusCode < 200) return;
    this.#status = statusCode;
    this.#headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
  }

  onResponseEnd(): void {
    this.#settled = true;
    this.#resolve({ status: this.#status, headers: this.#headers, bodyText: this.#text() });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error): void {
    this.#settled = true;
    this.#reject(err);
  }

  /** The body decoded as UTF-8 without a leading byte order mark, as `body.text()` gives it. */
  #text(): string {
    const chunks = this.#chunks;
    if (this.#length === 0) return '';
    const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#length);
    const bom = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
    return buffer.toString('utf8', bom ? 3 : 0);
  }
}
