/**
 * Reading the current-snapshot pointer and a snapshot's manifest from the object store, with the checks every
 * reader relies on (the API's snapshot cache, the ETL's feed builds and hourly rebuild): a well-formed snapshot id,
 * the layout version, and every object key a safe key inside its own snapshot.
 */
import {
  isSnapshotId,
  LAYOUT_VERSION,
  manifestKey,
  POINTER_KEY,
  type SnapshotManifest,
  type SnapshotPointer,
  snapshotPrefix,
} from '../../data-contracts/layout';
import { assertSafeKey, type ObjectStore } from './object-store';

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
  if (manifest.layout_version !== LAYOUT_VERSION) {
    throw new Error(`manifest layout_version ${manifest.layout_version}, expected ${LAYOUT_VERSION}`);
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

/** The current pointer and its manifest, or null when the store has no current snapshot. */
export async function readCurrentSnapshot(
  store: ObjectStore,
): Promise<{ pointer: SnapshotPointer; manifest: SnapshotManifest } | null> {
  const pointer = await readPointer(store);
  if (pointer === null) return null;
  return { pointer, manifest: await readManifest(store, pointer.snapshot_id) };
}
