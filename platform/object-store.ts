/**
 * The object store behind snapshots: an S3 bucket in production, a local folder with the same key layout on
 * the embedded default. The ETL writes through it; the API reads through it. Keys are the relative keys of
 * `data-contracts/layout.ts`. The two backends: `folder-store.ts` and `s3-store.ts`.
 *
 * Writes are atomic per object on both backends: S3 PUTs are, and the folder store writes a temporary file
 * beside the target and renames it over the target.
 */
import { createHash, type Hash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface ObjectInfo {
  /** Changes whenever the object's bytes change. S3's ETag; size and mtime for the folder store. */
  etag: string;
  size: number;
}

export interface ObjectStore {
  /** A human description for logs and CLI output (`s3://bucket/prefix`, `file:///path`). */
  readonly location: string;
  head(key: string): Promise<ObjectInfo | null>;
  /** The whole object in memory, or null when there is no such key. Meant for small JSON objects. */
  getBytes(key: string): Promise<{ body: Buffer; info: ObjectInfo } | null>;
  /**
   * Bytes `[offset, offset + length)` of the object (a ranged GET); throws when there is no such key or the
   * object is shorter.
   */
  getRange(key: string, offset: number, length: number): Promise<Buffer>;
  /**
   * The local file that holds the object, when the store is a local folder (its ranges are then positional reads
   * of that file, no copy); undefined for a remote store.
   */
  localFile?(key: string): string;
  /**
   * Streams the object to `filePath` (written atomically), feeding every chunk to `hash` when given (a digest taken
   * while the bytes stream). Returns null when there is no such key.
   */
  download(key: string, filePath: string, hash?: Hash): Promise<ObjectInfo | null>;
  put(key: string, body: Buffer | string, contentType: string): Promise<ObjectInfo>;
  /** Streams a local file into the store. */
  upload(key: string, filePath: string, contentType: string): Promise<ObjectInfo>;
  /** Every key under `prefix`, in lexical order. */
  list(prefix: string): Promise<string[]>;
  /** The object's tags ({} when it has none, or when the backend has no tags). */
  getTags(key: string): Promise<Record<string, string>>;
  /** Replaces the object's tags. The folder store keeps no tags: it has no lifecycle rules to act on them. */
  setTags(key: string, tags: Record<string, string>): Promise<void>;
}

const KEY_PATTERN = /^[A-Za-z0-9!_.*'()=/-]+$/;

/** Refuses keys that could escape the store root (`..`, absolute paths) or that carry odd characters. */
export function assertSafeKey(key: string): string {
  if (!KEY_PATTERN.test(key) || key.startsWith('/') || key.split('/').some((seg) => seg === '..' || seg === '')) {
    throw new Error(`unsafe object key: ${JSON.stringify(key)}`);
  }
  return key;
}

/**
 * Writes `filePath` atomically: `write` fills a temporary file beside it, which is then renamed over it (and
 * removed when writing fails). Creates the parent folder.
 */
export async function writeFileAtomically(filePath: string, write: (tmp: string) => Promise<void>): Promise<void> {
  await mkdir(path.dirname(filePath), { recursive: true });
  const tmp = `${filePath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await write(tmp);
    await rename(tmp, filePath);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Writes the bytes `body()` streams to `filePath` atomically ({@link writeFileAtomically}), feeding them to `hash` as
 * they pass: a download of either backend. `body` is opened only once the temporary file's folder exists.
 */
export async function downloadAtomically(filePath: string, body: () => Readable, hash?: Hash): Promise<void> {
  await writeFileAtomically(filePath, (tmp) => pipeline(body(), hashing(hash), createWriteStream(tmp)));
}

/** True for "no such object" from either backend: a missing file (ENOENT) or S3's NoSuchKey / NotFound / 404. */
export function isNotFoundError(err: unknown): boolean {
  const e = err as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.code === 'ENOENT' || e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404
  );
}

/** Read size for hashing: 1 MiB chunks hash a national NPPES file much faster than the 64 KiB default. */
const HASH_CHUNK_BYTES = 1 << 20;

/** SHA-256 of a local file, streamed. */
export async function sha256File(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(filePath, { highWaterMark: HASH_CHUNK_BYTES }), hash);
  return hash.digest('hex');
}

/**
 * Downloads objects of a snapshot into `dir` (as `<i>.parquet`, in order), each checked against its manifest SHA-256:
 * a missing or altered object throws naming its key. Returns the local files in the order of `objects`.
 */
export async function downloadChecked(
  store: ObjectStore,
  objects: readonly { key: string; sha256: string }[],
  dir: string,
): Promise<string[]> {
  const files: string[] = [];
  for (const [i, object] of objects.entries()) {
    const file = path.join(dir, `${i}.parquet`);
    if (!(await store.download(object.key, file))) throw new Error(`${object.key} is missing from the store`);
    if ((await sha256File(file)) !== object.sha256)
      throw new Error(`${object.key} does not match its manifest SHA-256`);
    files.push(file);
  }
  return files;
}

/** A pass-through stream that feeds every chunk to `hash` (a download's digest, taken while it streams). */
function hashing(hash: Hash | undefined): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash?.update(chunk);
      done(null, chunk);
    },
  });
}
