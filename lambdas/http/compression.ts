/**
 * Response compression (RFC 9110 §8.4, §12.5.3): JSON, CSV and HTML bodies of at least {@link MIN_COMPRESS_BYTES} are
 * sent br or gzip, as the client's `Accept-Encoding` asks (the highest q-value; br on a tie; `q=0` refuses a
 * coding, `*` stands for the codings not named). Every JSON, CSV or HTML answer carries `Vary: Accept-Encoding`.
 *
 * The `ETag` is the same in every coding: it names the data before content coding (snapshot, route, query, plan,
 * format; data-version.ts), so a tag held from a gzip answer validates an identity request and the 304 carries the
 * tag the client holds. The API serves no ranges, the one use that needs a strong tag to promise identical bytes.
 *
 * Both adapters send the same bytes: node:http writes the compressed body, and Hono's Lambda adapter base64-encodes
 * a body with `Content-Encoding` (API Gateway HTTP API decodes it).
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { appendHeader, headerOf, type ResponseParts, setHeader } from './response-parts';

/** Bodies below this are sent as they are: compressing them saves little and costs a round of CPU. */
export const MIN_COMPRESS_BYTES = 1024;

/** The codings offered, best first. */
const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Brotli 11 (zlib's default) costs seconds on a 1 MB page; 5 keeps most of the gain at a fraction of the time. */
const BROTLI_QUALITY = 5;

/**
 * The coding to send for an `Accept-Encoding` header, or null for identity.
 * @example chooseCoding('gzip, deflate, br') === 'br'; chooseCoding('br;q=0, gzip') === 'gzip'
 */
export function chooseCoding(acceptEncoding: string | undefined): Coding | null {
  if (acceptEncoding === undefined) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q') q = Number(value);
    }
    weights.set(name, Number.isFinite(q) ? q : 0);
  }
  let best: Coding | null = null;
  let bestWeight = 0;
  for (const coding of CODINGS) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/** The bytes of `body` in `coding`. */
export async function compressBytes(body: Uint8Array, coding: Coding): Promise<Buffer> {
  if (coding === 'br') {
    return brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      },
    });
  }
  return gzipAsync(body);
}

function isCompressible(contentType: string | undefined): boolean {
  return contentType !== undefined && /^(application\/json|text\/csv|text\/html)\b/.test(contentType);
}

/**
 * `parts` in the coding the client asked for: the compressed body with `Content-Encoding` and `Content-Length` (the
 * `ETag` unchanged); or the same body (with `Vary` when it is JSON, CSV or HTML, and on every 304). The headers are
 * changed in place.
 */
export async function compressParts(parts: ResponseParts, acceptEncoding: string | undefined): Promise<ResponseParts> {
  const { headers } = parts;
  // A 304 names the headers of the 200 it stands for, Vary included (RFC 9110 §15.4.5).
  if (parts.status === 304) appendHeader(headers, 'Vary', 'Accept-Encoding');
  if (!isCompressible(headerOf(headers, 'content-type'))) return parts;
  appendHeader(headers, 'Vary', 'Accept-Encoding');
  const coding = chooseCoding(acceptEncoding);
  if (coding === null || parts.body === null || headerOf(headers, 'content-encoding') !== undefined) return parts;
  if (parts.body.byteLength < MIN_COMPRESS_BYTES) return parts;
  const compressed = await compressBytes(parts.body, coding);
  setHeader(headers, 'Content-Encoding', coding);
  setHeader(headers, 'Content-Length', String(compressed.byteLength));
  return { ...parts, body: compressed };
}
