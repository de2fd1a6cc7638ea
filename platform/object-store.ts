/**
 * The object store behind snapshots: an S3 bucket in production, a local folder with the same key layout on
 * the embedded default. The ETL writes through it; the API reads through it. Keys are the relative keys of
 * `data-contracts/layout.ts`.
 *
 * Writes are atomic per object on both backends: S3 PUTs are, and the folder store writes a temporary file
 * beside the target and renames it over the target.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  GetObjectCommand,
  type GetObjectCommandOutput,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  PutObjectTaggingCommand,
  S3Client,
} from '@aws-sdk/client-s3';

/**
 * One S3 client per process. A custom `endpoint` (s3rver locally and in tests) switches to path-style
 * addressing and static credentials, which local S3 servers need.
 */
export function createS3Client(options: { region?: string; endpoint?: string } = {}): S3Client {
  return new S3Client({
    region: options.region ?? 'us-east-1',
    ...(options.endpoint
      ? {
          endpoint: options.endpoint,
          forcePathStyle: true,
          // Local S3 servers predate the SDK's default CRC checksums, which stream bodies as `aws-chunked`
          // frames that s3rver would store verbatim. Real S3 keeps the default.
          // https://github.com/aws/aws-sdk-js-v3/issues/6810
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
          responseChecksumValidation: 'WHEN_REQUIRED' as const,
          credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        }
      : {}),
  });
}

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
  /** Streams the object to `filePath` (written atomically). Returns null when there is no such key. */
  download(key: string, filePath: string): Promise<ObjectInfo | null>;
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

function tempSibling(filePath: string): string {
  return `${filePath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/** A local folder laid out exactly like the bucket. */
export class FolderObjectStore implements ObjectStore {
  readonly location: string;

  constructor(private readonly root: string) {
    this.location = `file://${path.resolve(root)}`;
  }

  private pathOf(key: string): string {
    return path.join(this.root, assertSafeKey(key));
  }

  private static infoOf(st: { size: number; mtimeMs: number }): ObjectInfo {
    return { etag: `${st.size}-${Math.trunc(st.mtimeMs * 1000)}`, size: st.size };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      return FolderObjectStore.infoOf(await stat(this.pathOf(key)));
    } catch (err) {
      if (isNotFoundError(err)) return null;
      throw err;
    }
  }

  async getBytes(key: string): Promise<{ body: Buffer; info: ObjectInfo } | null> {
    const file = this.pathOf(key);
    try {
      const [body, st] = await Promise.all([readFile(file), stat(file)]);
      return { body, info: FolderObjectStore.infoOf(st) };
    } catch (err) {
      if (isNotFoundError(err)) return null;
      throw err;
    }
  }

  async download(key: string, filePath: string): Promise<ObjectInfo | null> {
    const info = await this.head(key);
    if (info === null) return null;
    await mkdir(path.dirname(filePath), { recursive: true });
    const tmp = tempSibling(filePath);
    try {
      await pipeline(createReadStream(this.pathOf(key)), createWriteStream(tmp));
      await rename(tmp, filePath);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return info;
  }

  async put(key: string, body: Buffer | string, _contentType: string): Promise<ObjectInfo> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = tempSibling(file);
    try {
      await writeFile(tmp, body);
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return FolderObjectStore.infoOf(await stat(file));
  }

  async upload(key: string, filePath: string, _contentType: string): Promise<ObjectInfo> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = tempSibling(file);
    try {
      await pipeline(createReadStream(filePath), createWriteStream(tmp));
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return FolderObjectStore.infoOf(await stat(file));
  }

  async getTags(_key: string): Promise<Record<string, string>> {
    return {};
  }

  async setTags(_key: string, _tags: Record<string, string>): Promise<void> {}

  async list(prefix: string): Promise<string[]> {
    const base = path.join(this.root, prefix.split('/').slice(0, -1).join('/'));
    let entries: string[];
    try {
      entries = await readdir(base, { recursive: true });
    } catch (err) {
      if (isNotFoundError(err)) return [];
      throw err;
    }
    const rel = path.relative(this.root, base);
    const keys: string[] = [];
    for (const entry of entries) {
      const key = (rel === '' ? entry : `${rel}/${entry}`).split(path.sep).join('/');
      if (!key.startsWith(prefix) || key.endsWith('.tmp')) continue;
      const st = await stat(path.join(this.root, key));
      if (st.isFile()) keys.push(key);
    }
    return keys.sort();
  }
}

/** An S3 bucket, optionally under a key prefix. */
export class S3ObjectStore implements ObjectStore {
  readonly location: string;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix = '',
  ) {
    if (prefix !== '' && !prefix.endsWith('/')) this.prefix = `${prefix}/`;
    this.location = `s3://${bucket}/${this.prefix}`;
  }

  private keyOf(key: string): string {
    return this.prefix + assertSafeKey(key);
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      return { etag: out.ETag ?? '', size: out.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFoundError(err)) return null;
      throw err;
    }
  }

  async getBytes(key: string): Promise<{ body: Buffer; info: ObjectInfo } | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      const body = Buffer.from(
        await (out.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
      );
      return { body, info: { etag: out.ETag ?? '', size: body.length } };
    } catch (err) {
      if (isNotFoundError(err)) return null;
      throw err;
    }
  }

  async download(key: string, filePath: string): Promise<ObjectInfo | null> {
    let out: GetObjectCommandOutput;
    try {
      out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
    } catch (err) {
      if (isNotFoundError(err)) return null;
      throw err;
    }
    await mkdir(path.dirname(filePath), { recursive: true });
    const tmp = tempSibling(filePath);
    try {
      await pipeline(out.Body as Readable, createWriteStream(tmp));
      await rename(tmp, filePath);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return { etag: out.ETag ?? '', size: out.ContentLength ?? 0 };
  }

  async put(key: string, body: Buffer | string, contentType: string): Promise<ObjectInfo> {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const out = await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key), Body: bytes, ContentType: contentType }),
    );
    return { etag: out.ETag ?? '', size: bytes.length };
  }

  async upload(key: string, filePath: string, contentType: string): Promise<ObjectInfo> {
    const { size } = await stat(filePath);
    const out = await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(key),
        Body: createReadStream(filePath),
        ContentLength: size,
        ContentType: contentType,
      }),
    );
    return { etag: out.ETag ?? '', size };
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken: token }),
      );
      for (const obj of out.Contents ?? []) if (obj.Key) keys.push(obj.Key.slice(this.prefix.length));
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  async getTags(key: string): Promise<Record<string, string>> {
    const out = await this.client.send(new GetObjectTaggingCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
    return Object.fromEntries((out.TagSet ?? []).map((t) => [t.Key ?? '', t.Value ?? '']));
  }

  async setTags(key: string, tags: Record<string, string>): Promise<void> {
    await this.client.send(
      new PutObjectTaggingCommand({
        Bucket: this.bucket,
        Key: this.keyOf(key),
        Tagging: { TagSet: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) },
      }),
    );
  }
}

function isNotFoundError(err: unknown): boolean {
  if (err instanceof NoSuchKey || err instanceof NotFound) return true;
  const e = err as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.code === 'ENOENT' || e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404
  );
}

/** Read size for hashing: 1 MiB chunks hash a 10 GB NPPES file in about half the time of the 64 KiB default. */
const HASH_CHUNK_BYTES = 1 << 20;

/** SHA-256 of a local file, streamed. */
export async function sha256File(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(filePath, { highWaterMark: HASH_CHUNK_BYTES }), hash);
  return hash.digest('hex');
}
