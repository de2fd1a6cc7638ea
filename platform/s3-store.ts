/**
 * The S3 backend of the object store (AWS SDK v3): a bucket, optionally under a key prefix, and the one S3 client
 * per process that it sends through.
 */
import type { Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  GetObjectCommand,
  type GetObjectCommandOutput,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  PutObjectTaggingCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { assertSafeKey, downloadAtomically, isNotFoundError, type ObjectInfo, type ObjectStore } from './object-store';

/** Connections to S3 at once, at most, per process. */
export const S3_MAX_SOCKETS = 256;

/**
 * One S3 client per process. A custom `endpoint` (s3rver locally and in tests) switches to path-style
 * addressing and static credentials, which local S3 servers need.
 */
export function createS3Client(options: { region?: string; endpoint?: string } = {}): S3Client {
  return new S3Client({
    region: options.region ?? 'us-east-1',
    // Ranged reads come many at a time (a batch of 100 NPIs opens up to 100 buckets at once): more sockets than the
    // SDK's default 50, each kept alive for the next read. (Shorthand since SDK v3.521.0.)
    requestHandler: {
      httpAgent: { keepAlive: true, maxSockets: S3_MAX_SOCKETS },
      httpsAgent: { keepAlive: true, maxSockets: S3_MAX_SOCKETS },
    },
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

  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    if (length === 0) return Buffer.alloc(0);
    const out = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(key),
        Range: `bytes=${offset}-${offset + length - 1}`,
      }),
    );
    const body = Buffer.from(
      await (out.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
    );
    if (body.length !== length) throw new Error(`${key}: asked ${length} bytes at ${offset}, got ${body.length}`);
    return body;
  }

  async download(key: string, filePath: string, hash?: Hash): Promise<ObjectInfo | null> {
    let out: GetObjectCommandOutput;
    try {
      out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
    } catch (err) {
      if (isNotFoundError(err)) return null;
      throw err;
    }
    await downloadAtomically(filePath, () => out.Body as Readable, hash);
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
