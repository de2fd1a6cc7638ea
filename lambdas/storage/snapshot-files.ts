/**
 * One snapshot's objects on local disk, fetched on demand: into `<cacheDir>/<snapshot id>/`, named by a hash of
 * key and ETag, written atomically by the object store (temp file + rename). Concurrent requests for one object
 * share one download (platform/in-flight); a failed download is not remembered. Only keys of the snapshot's
 * manifest are ever fetched: no path is built from anything else.
 */
import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ManifestObject, SnapshotManifest } from '../../data-contracts/layout';
import { InFlight } from '../../platform/in-flight';
import type { ObjectStore } from '../../platform/object-store';

/** One immutable snapshot: its manifest and on-demand access to its objects. */
export interface SnapshotFiles {
  readonly id: string;
  readonly manifest: SnapshotManifest;
  /** The manifest's objects of one kind. */
  objectsOf(kind: ManifestObject['kind']): ManifestObject[];
  /** True when `key` is an object of this snapshot. */
  has(key: string): boolean;
  /**
   * The local path of an object of this snapshot, downloading it first if needed. Throws for a key that is
   * not in the manifest: no path is ever built from anything else.
   */
  localPath(key: string): Promise<string>;
  /** The bytes of a small object of this snapshot (static JSON/CSV), kept in memory for the snapshot's life. */
  readSmall(key: string): Promise<Buffer>;
}

/** {@link SnapshotFiles} over an object store, cached under `dir`. */
export class SnapshotFilesImpl implements SnapshotFiles {
  readonly id: string;
  private readonly byKey: Map<string, ManifestObject>;
  /** Local paths of the objects downloaded so far. */
  private readonly paths = new Map<string, string>();
  private readonly downloads = new InFlight<string, string>();
  /** Bytes of the small objects read so far, kept for the snapshot's life. */
  private readonly small = new Map<string, Buffer>();
  private readonly smallReads = new InFlight<string, Buffer>();

  constructor(
    readonly manifest: SnapshotManifest,
    private readonly store: ObjectStore,
    readonly dir: string,
  ) {
    this.id = manifest.snapshot_id;
    this.byKey = new Map(manifest.objects.map((o) => [o.key, o]));
  }

  objectsOf(kind: ManifestObject['kind']): ManifestObject[] {
    return this.manifest.objects.filter((o) => o.kind === kind);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  localPath(key: string): Promise<string> {
    const object = this.objectOf(key);
    const known = this.paths.get(key);
    if (known !== undefined) return Promise.resolve(known);
    // A failed download is not remembered (InFlight forgets it): the next request tries again.
    return this.downloads.run(key, async () => {
      const file = await this.fetch(object);
      this.paths.set(key, file);
      return file;
    });
  }

  readSmall(key: string): Promise<Buffer> {
    this.objectOf(key);
    const known = this.small.get(key);
    if (known !== undefined) return Promise.resolve(known);
    return this.smallReads.run(key, async () => {
      const found = await this.store.getBytes(key);
      if (found === null) throw new Error(`object ${key} of the manifest is missing from the store`);
      this.small.set(key, found.body);
      return found.body;
    });
  }

  private objectOf(key: string): ManifestObject {
    const object = this.byKey.get(key);
    if (object === undefined) throw new Error(`key is not in the manifest of ${this.id}`);
    return object;
  }

  private async fetch(object: ManifestObject): Promise<string> {
    const info = await this.store.head(object.key);
    if (info === null) throw new Error(`object ${object.key} of the manifest is missing from the store`);
    const file = path.join(this.dir, `${cacheName(object.key, info.etag)}${path.extname(object.key)}`);
    // A file of the same key and ETag from an earlier process (a warm Lambda's /tmp, a restarted local server).
    const existing = await stat(file).catch(() => null);
    if (existing !== null && existing.size === object.bytes) return file;
    await mkdir(this.dir, { recursive: true });
    const downloaded = await this.store.download(object.key, file);
    if (downloaded === null) throw new Error(`object ${object.key} vanished during download`);
    return file;
  }
}

function cacheName(key: string, etag: string): string {
  return createHash('sha256').update(`${key}\n${etag}`).digest('hex').slice(0, 40);
}
