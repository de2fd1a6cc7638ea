/**
 * The text of a Lambda result's body as a client reads it: base64 decoded when API Gateway would decode it, then
 * decompressed per `Content-Encoding` (the API compresses JSON and CSV of 1 KB or more when the event asks).
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface LambdaResultLike {
  headers?: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
}

export function lambdaBodyText(result: LambdaResultLike): string {
  const bytes = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body, 'utf8');
  const coding = Object.entries(result.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1];
  const plain = coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes;
  return plain.toString('utf8');
}
