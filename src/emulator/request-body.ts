/**
 * Reading a request's body under the size limit, and what follows a refusal: the rest of the body
 * is read and dropped (a lingering close, as nginx does), so that a client still sending it reads
 * the 413 instead of a reset connection. How much and how long is bounded.
 */
import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '../resources/index.js';
import { ApiFailure } from './failure.js';

/** Bodies above this are refused with 413 before they are parsed. */
const MAX_BODY_BYTES = 1024 * 1024;

/** After a 413, at most this much more of the body is read before the connection is dropped. */
export const LINGER_BYTES = 16 * 1024 * 1024;

/** ...and for at most this long. */
const LINGER_MS = 10_000;

function tooLarge(): ApiFailure {
  return new ApiFailure(413, ErrorCode.bodyTooLarge, `the body is larger than ${MAX_BODY_BYTES} bytes`, {
    limit_bytes: MAX_BODY_BYTES,
  });
}

/** The whole body, or a rejection with 413 as soon as it is known to exceed the limit. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      req.off('data', collect);
      reject(tooLarge());
    };
    req.on('data', collect);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Reads and drops what is left of the body of a refused request (too large, or refused before it
 * was read). Node's server keeps the connection and answers its next request once this one ended;
 * beyond the bounds the connection is dropped (a client still sending then may see a reset, having
 * had the answer all along).
 */
export function drainUnreadBody(req: IncomingMessage): void {
  if (req.readableEnded) return;
  let left = LINGER_BYTES;
  const drop = (): void => {
    req.socket.destroy();
  };
  const timer = setTimeout(drop, LINGER_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) drop();
  });
  req.once('close', () => clearTimeout(timer));
  req.once('end', () => clearTimeout(timer));
  req.on('error', () => undefined);
  req.resume();
}
