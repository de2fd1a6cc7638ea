/**
 * The snapshot protocol, both sides next to each other.
 *
 * Reading: the current-snapshot pointer and a snapshot's manifest from the object store, with the checks every
 * reader relies on (the API's snapshot cache, the ETL's feed builds and hourly rebuild): a well-formed snapshot id,
 * the layout version, and every object key a safe key inside its own snapshot.
 *
 * Publishing (the ETL), in the order that keeps readers safe: data objects, static objects and rejects, then
 * `manifest.json` (listing every object with bytes, SHA-256 and rows), then the pointer `current.json` in one write
 * (atomic on S3 and on the folder store), then `public/*`. Nothing outside `snapshots/<new id>/` is written before
 * the pointer, so a run that fails before it leaves the current snapshot and the pointer exactly as they were; a
 * failed run's prefix has no manifest and is garbage.
 */
import { createHash, randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import {
  blockDigestsKey,
  isSnapshotId,
  LAYOUT_VERSION,
  type ManifestObject,
  manifestKey,
  npiBucketsPrefix,
  POINTER_KEY,
  READABLE_LAYOUT_VERSIONS,
  type SnapshotManifest,
  type SnapshotPointer,
  snapshotPrefix,
} from '../data-contracts/layout';
import { isoSeconds } from './iso-time';
import { NpiBucketEntries, OBJECTS_CLOSE, OBJECTS_OPEN, scanNpiBucketLines } from './npi-bucket-entries';
import { assertSafeKey, type ObjectStore, sha256File } from './object-store';
import { blockDigestsOfFile } from './ranged/block-digests';
import { isRangedKind, prefetchRangesOfFile } from './ranged/prefetch';

/** Parses `current.json`. The manifest key is derived from the id, never taken from the object. */
export function parsePointer(body: Buffer): SnapshotPointer {
  const value = JSON.parse(body.toString('utf8')) as Partial<SnapshotPointer>;
  if (typeof value.snapshot_id !== 'string' || !isSnapshotId(value.snapshot_id)) {
    throw new Error('pointer has no valid snapshot_id');
  }
  return {
    snapshot_id: value.snapshot_id,
    manifest_key: manifestKey(value.snapshot_id),
    published_at: String(value.published_at ?? ''),
  };
}

/** Parses a manifest and checks its layout version, its id and that every key is a safe key of this snapshot. */
export function parseManifest(body: Buffer, snapshotId: string): SnapshotManifest {
  const manifest = JSON.parse(body.toString('utf8')) as SnapshotManifest;
  if (!(READABLE_LAYOUT_VERSIONS as readonly number[]).includes(manifest.layout_version)) {
    throw new Error(
      `manifest layout_version ${manifest.layout_version}, expected one of ${READABLE_LAYOUT_VERSIONS.join(', ')}`,
    );
  }
  if (manifest.snapshot_id !== snapshotId) throw new Error('manifest snapshot_id differs from the pointer');
  if (!Array.isArray(manifest.objects)) throw new Error('manifest has no objects list');
  const prefix = snapshotPrefix(snapshotId);
  for (const object of manifest.objects) {
    assertSafeKey(object.key);
    if (!object.key.startsWith(prefix)) throw new Error(`manifest object outside its snapshot: ${object.key}`);
  }
  return manifest;
}

/** The pointer, or null when the store has no current snapshot. */
export async function readPointer(store: ObjectStore): Promise<SnapshotPointer | null> {
  const found = await store.getBytes(POINTER_KEY);
  return found === null ? null : parsePointer(found.body);
}

/** A snapshot's manifest; throws when it is missing or malformed. */
export async function readManifest(store: ObjectStore, snapshotId: string): Promise<SnapshotManifest> {
  const found = await store.getBytes(manifestKey(snapshotId));
  if (found === null) throw new Error(`manifest of ${snapshotId} is missing`);
  return parseManifest(found.body, snapshotId);
}

/**
 * A manifest as the API serves from it: `manifest` lists every object but the NPI buckets, whose entries are parsed
 * one at a time when a query first reads a bucket (../platform/npi-bucket-entries.ts). Nationally that leaves about
 * 670 of 20,480 objects to parse when a cold instance loads the snapshot.
 */
export interface ServingManifest {
  manifest: SnapshotManifest;
  npiBuckets: NpiBucketEntries;
}

/** {@link parseManifest}'s checks, the NPI buckets' entries left unparsed ({@link ServingManifest}). */
export function parseServingManifest(body: Buffer, snapshotId: string): ServingManifest {
  const prefix = npiBucketsPrefix(snapshotId);
  const split = scanNpiBucketLines(body, prefix);
  // Not written one object per line (before layout 4): parsed whole.
  const manifest = parseManifest(split?.rest ?? body, snapshotId);
  // Bucket objects whose lines the scan did not recognise are parsed with the rest: kept as such.
  const parsed = manifest.objects.filter((o) => o.kind === 'npi');
  const objects = parsed.length > 0 ? manifest.objects.filter((o) => o.kind !== 'npi') : manifest.objects;
  const npiBuckets =
    split === null ? NpiBucketEntries.of(parsed) : NpiBucketEntries.ofLines(body, split.lines, prefix, parsed);
  return { manifest: { ...manifest, objects }, npiBuckets };
}

/** A snapshot's {@link ServingManifest}; throws when it is missing or malformed. */
export async function readServingManifest(store: ObjectStore, snapshotId: string): Promise<ServingManifest> {
  const found = await store.getBytes(manifestKey(snapshotId));
  if (found === null) throw new Error(`manifest of ${snapshotId} is missing`);
  return parseServingManifest(found.body, snapshotId);
}

/** The current pointer and its manifest, or null when the store has no current snapshot. */
export async function readCurrentSnapshot(
  store: ObjectStore,
): Promise<{ pointer: SnapshotPointer; manifest: SnapshotManifest } | null> {
  const pointer = await readPointer(store);
  if (pointer === null) return null;
  return { pointer, manifest: await readManifest(store, pointer.snapshot_id) };
}

export const CONTENT_TYPES = {
  parquet: 'application/vnd.apache.parquet',
  json: 'application/json',
  csv: 'text/csv; charset=utf-8',
  html: 'text/html; charset=utf-8',
  binary: 'application/octet-stream',
} as const;

/** Uploads run this many at a time (S3 latency dominates small partitions). */
const UPLOAD_CONCURRENCY = 8;

/**
 * A new snapshot id: the snapshot time to the second, UTC, and 8 random base-36 characters.
 * @example newSnapshotId(new Date('2026-11-21T05:38:00Z')) -> '20261121T053800Z-k3j9x0qa'
 */
export function newSnapshotId(time: Date): string {
  const stamp = isoSeconds(time).replace(/[-:]/g, '');
  const suffix = [...randomBytes(8)].map((b) => (b % 36).toString(36)).join('');
  return `${stamp}-${suffix}`;
}

type ObjectMeta = Omit<ManifestObject, 'key' | 'bytes' | 'sha256'>;

export class SnapshotPublisher {
  readonly objects: ManifestObject[] = [];

  constructor(
    private readonly store: ObjectStore,
    readonly snapshotId: string,
  ) {}

  private assertInside(key: string): void {
    if (!key.startsWith(snapshotPrefix(this.snapshotId)))
      throw new Error(`refusing to write ${key} before the pointer`);
  }

  /** Uploads local files (at most UPLOAD_CONCURRENCY at a time) and records them for the manifest. */
  async uploadFiles(
    items: readonly { key: string; file: string; contentType: string; meta: ObjectMeta }[],
    onDone?: (done: number, total: number) => void,
  ): Promise<void> {
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < items.length) {
        const item = items[next] as (typeof items)[number];
        next += 1;
        this.assertInside(item.key);
        const [sha256, st] = await Promise.all([sha256File(item.file), stat(item.file)]);
        const block_digests = await this.uploadBlockDigests(item.key, item.file, item.meta.kind);
        await this.store.upload(item.key, item.file, item.contentType);
        this.objects.push({ key: item.key, bytes: st.size, sha256, ...item.meta, ...block_digests });
        done += 1;
        onDone?.(done, items.length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, items.length) }, worker));
  }

  /**
   * Writes the block digests of an object the API reads in place (platform/ranged/block-digests.ts) beside it, and
   * returns the manifest's reference to them; nothing for other objects.
   */
  private async uploadBlockDigests(
    key: string,
    file: string,
    kind: ManifestObject['kind'],
  ): Promise<Pick<ManifestObject, 'block_digests'>> {
    if (!isRangedKind(kind)) return {};
    const digests = await blockDigestsOfFile(file, prefetchRangesOfFile(kind, file));
    await this.store.put(blockDigestsKey(key), digests, CONTENT_TYPES.binary);
    return { block_digests: { bytes: digests.length, sha256: createHash('sha256').update(digests).digest('hex') } };
  }

  async putText(key: string, text: string, contentType: string, meta: ObjectMeta): Promise<void> {
    this.assertInside(key);
    const body = Buffer.from(text, 'utf8');
    await this.store.put(key, body, contentType);
    this.objects.push({ key, bytes: body.length, sha256: createHash('sha256').update(body).digest('hex'), ...meta });
  }

  /** Writes the manifest (objects sorted by key). Call after every other object of the snapshot. */
  async putManifest(fields: Omit<SnapshotManifest, 'layout_version' | 'snapshot_id' | 'objects'>): Promise<string> {
    const manifest: SnapshotManifest = {
      layout_version: LAYOUT_VERSION,
      snapshot_id: this.snapshotId,
      ...fields,
      objects: [...this.objects].sort((a, b) => a.key.localeCompare(b.key)),
    };
    const key = manifestKey(this.snapshotId);
    await this.store.put(key, manifestText(manifest), CONTENT_TYPES.json);
    return key;
  }

  /** Switches `current.json` to this snapshot in one write. */
  async switchPointer(now: Date): Promise<SnapshotPointer> {
    const pointer: SnapshotPointer = {
      snapshot_id: this.snapshotId,
      manifest_key: manifestKey(this.snapshotId),
      published_at: isoSeconds(now),
    };
    await this.store.put(POINTER_KEY, `${JSON.stringify(pointer, null, 2)}\n`, CONTENT_TYPES.json);
    return pointer;
  }
}

/**
 * A manifest as stored: its fields indented, each object on one line (a national manifest lists tens of thousands of
 * objects; indenting each object's members too made it several times larger, and every cold instance reads it at
 * init).
 */
export function manifestText(manifest: SnapshotManifest): string {
  const { objects, ...fields } = manifest;
  const head = JSON.stringify(fields, null, 2).replace(/\n}$/, '');
  // The API's snapshot load finds the NPI buckets' lines in this shape without parsing them (npi-bucket-entries.ts).
  return `${head},${OBJECTS_OPEN}${objects.map((o) => `    ${JSON.stringify(o)}`).join(',\n')}${OBJECTS_CLOSE}\n`;
}
