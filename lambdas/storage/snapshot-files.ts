/**
 * One snapshot's objects, as the query layer reads them, every byte verified against the snapshot's manifest
 * (docs/read-in-place.md):
 * - objects read whole (the vertical layer, the taxonomy, the change feed, static objects) are fetched on demand
 *   into `<cacheDir>/<snapshot id>/`, named by a hash of key and the manifest's SHA-256, their SHA-256 taken while
 *   they stream and compared before the file takes its name; small ones are held in memory, checked the same way;
 * - objects read in place (layout 4's `identity_index`, `search` and `npi` objects, with block digests) are opened
 *   as byte sources: a remote object's ranges are fetched and verified block by block (platform/ranged); a local
 *   folder's file is read where it is, each block checked the first time it is read.
 * A mismatch is fetched once more, then thrown as an `IntegrityError` (the API's 503). Concurrent requests for one
 * object share one download (platform/in-flight); a failed download is not remembered. Only keys of the
 * snapshot's manifest are ever fetched: no path is built from anything else.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { blockDigestsKey, type ManifestObject, type SnapshotManifest } from '../../data-contracts/layout';
import type { BlockCache } from '../../platform/binary/block-cache';
import type { ByteSource } from '../../platform/binary/byte-source';
import { FileSource } from '../../platform/binary/file-source';
import { InFlight } from '../../platform/in-flight';
import { NpiBucketEntries } from '../../platform/npi-bucket-entries';
import type { ObjectStore } from '../../platform/object-store';
import { BlockDigests, IntegrityError } from '../../platform/ranged/block-digests';
import { RangedObject } from '../../platform/ranged/ranged-object';
import { createRangedStorage, type RangedStorage } from '../../platform/ranged/storage';

/** A data object opened for reading in place. */
export interface IndexFile {
  readonly source: ByteSource & { close(): void };
  /** The local file that holds the whole object (read into memory when it is worth it), or null for ranged reads. */
  readonly path: string | null;
  /** Checks a whole copy of the object read from `path` (block by block, yielding between blocks). */
  readonly verifyWhole: ((bytes: Buffer) => Promise<void>) | null;
}
/** One immutable snapshot: its manifest and on-demand access to its objects. */
export interface SnapshotFiles {
  readonly id: string;
  readonly manifest: SnapshotManifest;
  /** The manifest's objects of one kind (of `npi`, every bucket's entry parsed: the API asks {@link npiBuckets}). */
  objectsOf(kind: ManifestObject['kind']): ManifestObject[];
  /** The NPI buckets' entries, each parsed when first read. */
  readonly npiBuckets: NpiBucketEntries;
  /** True when `key` is an object of this snapshot. */
  has(key: string): boolean;
  /**
   * The local path of an object of this snapshot, downloading it first if needed. Throws for a key that is
   * not in the manifest: no path is ever built from anything else.
   */
  localPath(key: string): Promise<string>;
  /** The bytes of a small object of this snapshot (static JSON/CSV), kept in memory for the snapshot's life. */
  readSmall(key: string): Promise<Buffer>;
  /** True when the store is a local folder (its objects are files: reading in place is a positional read). */
  readonly isLocal: boolean;
  /** True when `key` is read in place (it has block digests); else it is read whole through {@link localPath}. */
  readsInPlace(key: string): boolean;
  /**
   * Opens a data object of this snapshot for reading: in place when it has block digests (its prefetch ranges
   * fetched first), else downloaded whole and verified; `cache` is the caller's block cache for local files.
   */
  openIndex(key: string, cache: BlockCache): Promise<IndexFile>;
}

/** {@link SnapshotFiles} over an object store, cached under `dir`. */
export class SnapshotFilesImpl implements SnapshotFiles {
  readonly id: string;
  readonly isLocal: boolean;
  private readonly byKey: Map<string, ManifestObject>;
  /** Local paths of the objects downloaded so far. */
  private readonly paths = new Map<string, string>();
  private readonly downloads = new InFlight<string, string>();
  /** Bytes of the small objects read so far, kept for the snapshot's life. */
  private readonly small = new Map<string, Buffer>();
  private readonly smallReads = new InFlight<string, Buffer>();

  /** Verified block digests of the objects opened so far. */
  private readonly digests = new Map<string, BlockDigests>();
  private readonly digestReads = new InFlight<string, BlockDigests>();
  /** The blocks of local files checked so far, by key (one byte per block). */
  private readonly verifiedBlocks = new Map<string, Uint8Array>();

  readonly npiBuckets: NpiBucketEntries;

  /**
   * `npiBuckets`: the NPI buckets' entries when `manifest` lists the other objects only (readServingManifest);
   * without it they are taken from `manifest`.
   */
  constructor(
    readonly manifest: SnapshotManifest,
    private readonly store: ObjectStore,
    readonly dir: string,
    /** The process's block cache and local disk for ranged reads. */
    private readonly ranged: RangedStorage = createRangedStorage(),
    npiBuckets?: NpiBucketEntries,
  ) {
    this.id = manifest.snapshot_id;
    this.isLocal = store.localFile !== undefined;
    this.npiBuckets = npiBuckets ?? NpiBucketEntries.of(manifest.objects);
    this.byKey = new Map(manifest.objects.flatMap((o) => (o.kind === 'npi' ? [] : [[o.key, o] as const])));
  }

  objectsOf(kind: ManifestObject['kind']): ManifestObject[] {
    if (kind === 'npi') return this.npiBuckets.all();
    return this.manifest.objects.filter((o) => o.kind === kind);
  }

  has(key: string): boolean {
    return this.byKey.has(key) || this.npiBuckets.has(key);
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
    const object = this.objectOf(key);
    const known = this.small.get(key);
    if (known !== undefined) return Promise.resolve(known);
    return this.smallReads.run(key, async () => {
      const body = await this.readVerified(key, object.bytes, object.sha256);
      this.small.set(key, body);
      return body;
    });
  }

  readsInPlace(key: string): boolean {
    return this.objectOf(key).block_digests !== undefined;
  }

  async openIndex(key: string, cache: BlockCache): Promise<IndexFile> {
    const object = this.objectOf(key);
    if (object.block_digests === undefined) {
      const file = await this.localPath(key);
      return { source: new FileSource(file, cache), path: file, verifyWhole: null };
    }
    const local = this.store.localFile?.(key);
    // A remote object's head is fetched beside its digests (one round instead of two): the header and
    // directories every reader consults first start there; it is checked once the digests are here.
    const [digests, head] = await Promise.all([
      this.blockDigestsOf(object),
      local === undefined ? this.store.getRange(key, 0, Math.min(object.bytes, HEAD_BYTES)) : null,
    ]);
    const verifyWhole = (bytes: Buffer) => verifyBlocks(key, digests, bytes);
    if (local !== undefined) {
      const verifier = (index: number, block: Buffer) =>
        digests.verify(index, block) ? null : new IntegrityError(key, `block ${index} does not match its digest`);
      let verified = this.verifiedBlocks.get(key);
      if (verified === undefined) {
        verified = new Uint8Array(digests.blocks);
        this.verifiedBlocks.set(key, verified);
      }
      // The blocks checked once stay checked for the snapshot's life, however often the file is closed and opened.
      const source = new FileSource(local, cache, verifier, verified);
      if (source.size !== object.bytes) {
        source.close();
        throw new IntegrityError(key, `${source.size} bytes, the manifest says ${object.bytes}`);
      }
      return { source, path: local, verifyWhole };
    }
    const blocksDir = path.join(this.dir, 'blocks');
    mkdirSync(blocksDir, { recursive: true });
    const source = new RangedObject(
      key,
      digests,
      (offset, length) => this.store.getRange(key, offset, length),
      this.ranged,
      this.ranged.disk.limitBytes === 0 ? null : path.join(blocksDir, cacheName(key, object.sha256)),
    );
    try {
      if (head !== null) source.offer(0, head);
      await source.open();
    } catch (err) {
      source.close();
      throw err;
    }
    return { source, path: null, verifyWhole: null };
  }

  /** The block digests of `object`, read whole and checked against the manifest (once per snapshot). */
  private blockDigestsOf(object: ManifestObject): Promise<BlockDigests> {
    const known = this.digests.get(object.key);
    if (known !== undefined) return Promise.resolve(known);
    const ref = object.block_digests as NonNullable<ManifestObject['block_digests']>;
    return this.digestReads.run(object.key, async () => {
      const key = blockDigestsKey(object.key);
      const body = await this.readVerified(key, ref.bytes, ref.sha256);
      let digests: BlockDigests;
      try {
        digests = BlockDigests.parse(body, object.bytes);
      } catch (err) {
        throw new IntegrityError(key, err instanceof Error ? err.message : String(err));
      }
      this.digests.set(object.key, digests);
      return digests;
    });
  }

  /** An object read whole into memory and checked against `sha256`: fetched once more on a mismatch. */
  private async readVerified(key: string, bytes: number, sha256: string): Promise<Buffer> {
    for (let attempt = 0; ; attempt += 1) {
      const found = await this.store.getBytes(key);
      if (found === null) throw new Error(`object ${key} of the manifest is missing from the store`);
      const body = found.body;
      if (body.length === bytes && createHash('sha256').update(body).digest('hex') === sha256) return body;
      if (attempt >= 1) throw new IntegrityError(key, 'its bytes do not match the manifest (fetched twice)');
    }
  }

  private objectOf(key: string): ManifestObject {
    const object = this.byKey.get(key) ?? this.npiBuckets.get(key);
    if (object === undefined) throw new Error(`key is not in the manifest of ${this.id}`);
    return object;
  }

  private async fetch(object: ManifestObject): Promise<string> {
    const file = path.join(this.dir, `${cacheName(object.key, object.sha256)}${path.extname(object.key)}`);
    // A file of this key and digest from an earlier process (a warm Lambda's /tmp, a restarted local server): it
    // took its name only once its digest matched.
    const existing = await stat(file).catch(() => null);
    if (existing !== null && existing.size === object.bytes) return file;
    await mkdir(this.dir, { recursive: true });
    const partial = `${file}.partial`;
    try {
      for (let attempt = 0; ; attempt += 1) {
        const hash = createHash('sha256');
        const downloaded = await this.store.download(object.key, partial, hash);
        if (downloaded === null) throw new Error(`object ${object.key} vanished during download`);
        const size = (await stat(partial)).size;
        if (size === object.bytes && hash.digest('hex') === object.sha256) break;
        if (attempt >= 1) throw new IntegrityError(object.key, 'its bytes do not match the manifest (fetched twice)');
      }
      await rename(partial, file);
    } finally {
      await rm(partial, { force: true });
    }
    return file;
  }
}

/** Bytes of a remote object's head fetched beside its block digests: one block (a national NPI bucket's directory fits). */
const HEAD_BYTES = 16 * 1024;

/** Bytes of whole-copy verification between two yields to the event loop. */
const VERIFY_SLICE_BYTES = 1024 * 1024;

/** Checks every block of a whole copy of an object against its digests, yielding now and then. */
async function verifyBlocks(key: string, digests: BlockDigests, bytes: Buffer): Promise<void> {
  if (bytes.length !== digests.header.object_bytes) throw new IntegrityError(key, 'its size differs from its digests');
  const perSlice = Math.max(1, Math.floor(VERIFY_SLICE_BYTES / digests.blockBytes));
  for (let i = 0; i < digests.blocks; i += perSlice) {
    const at = i * digests.blockBytes;
    const bad = digests.firstMismatch(bytes.subarray(at, at + perSlice * digests.blockBytes), i);
    if (bad !== null) throw new IntegrityError(key, `block ${bad} does not match its digest`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function cacheName(key: string, sha256: string): string {
  return createHash('sha256').update(`${key}\n${sha256}`).digest('hex').slice(0, 40);
}
