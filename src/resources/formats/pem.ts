import { decodeStrictBase64 } from './base64.js';
import { preview } from './preview.js';
import { fail, ok, type Result } from './result.js';

/** One `-----BEGIN <label>----- ... -----END <label>-----` block. */
interface PemBlock {
  /** `CERTIFICATE`, `PRIVATE KEY`, `EC PRIVATE KEY`, ... */
  readonly label: string;
  /** RFC 1421 headers of legacy encrypted keys (`Proc-Type: 4,ENCRYPTED`), in order; usually empty. */
  readonly headers: readonly string[];
  readonly der: Buffer;
}

const BEGIN = /^-----BEGIN ([A-Z0-9][A-Z0-9 ]*)-----$/;

/**
 * Reads every PEM block of `text` (RFC 7468). Text between blocks is ignored, as the RFC asks and as
 * files written by `openssl x509 -text` need; a block that is unterminated or whose base64 is damaged
 * is an error. No blocks at all is an error too.
 */
export function readPemBlocks(text: string): Result<PemBlock[]> {
  const blocks: PemBlock[] = [];
  const lines = text.split('\n').map((line) => line.trim());
  for (let i = 0; i < lines.length; i++) {
    const label = BEGIN.exec(lines[i] ?? '')?.[1];
    if (label === undefined) continue;
    const endLine = `-----END ${label}-----`;
    const end = lines.indexOf(endLine, i + 1);
    if (end === -1) return fail(`the ${label} block (block ${blocks.length + 1}) has no "${endLine}" line`);

    const body = lines.slice(i + 1, end);
    const headerCount = body.findIndex((line) => !line.includes(':'));
    const headers = headerCount === -1 ? body : body.slice(0, headerCount);
    const der = decodeStrictBase64(body.slice(headers.length).join(''));
    if (der === undefined) return fail(`the ${label} block (block ${blocks.length + 1}) is not valid base64`);
    blocks.push({ label, headers, der });
    i = end;
  }
  if (blocks.length === 0) {
    return fail(
      text.trim() === '' ? 'the PEM text is empty' : `no PEM block found in "${preview(text.trim())}"`,
    );
  }
  return ok(blocks);
}
