/**
 * Publishing a snapshot through the object store, in the order that keeps readers safe:
 * data objects, static objects and rejects, then `manifest.json` (listing every object with bytes, SHA-256 and
 * rows), then the pointer `current.json` in one write (atomic on S3 and on the folder store), then `public/*`.
 * Nothing outside `snapshots/<new id>/` is written before the pointer, so a run that fails before it leaves the
 * current snapshot and the pointer exactly as they were; a failed run's prefix has no manifest and is garbage.
 */
import { createHash, randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import {
  LAYOUT_VERSION,
  type ManifestObject,
  manifestKey,
  POINTER_KEY,
  type SnapshotManifest,
  type SnapshotPointer,
  snapshotPrefix,
} from '../data-contracts/layout';
import { type ObjectStore, sha256File } from '../lambdas/storage/object-store';
import { isoSeconds } from './transforms/dates';

export const CONTENT_TYPES = {
  parquet: 'application/vnd.apache.parquet',
  json: 'application/json',
  csv: 'text/csv; charset=utf-8',
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
        await this.store.upload(item.key, item.file, item.contentType);
        this.objects.push({ key: item.key, bytes: st.size, sha256, ...item.meta });
        done += 1;
        onDone?.(done, items.length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, items.length) }, worker));
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
    await this.store.put(key, `${JSON.stringify(manifest, null, 2)}\n`, CONTENT_TYPES.json);
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

export { readCurrentSnapshot } from '../lambdas/storage/snapshot-pointer';
