import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LAYOUT_VERSION, manifestKey, POINTER_KEY, taxonomyKey } from '../../../../data-contracts/layout';
import { SnapshotCache } from '../../../../lambdas/storage/snapshot-cache';
import { FolderObjectStore } from '../../../../platform/object-store';

let dir: string;
let store: FolderObjectStore;
let downloads = 0;

async function publish(id: string): Promise<void> {
  const key = taxonomyKey(id);
  await store.put(key, 'parquet bytes', 'application/octet-stream');
  const manifest = {
    layout_version: LAYOUT_VERSION,
    snapshot_id: id,
    created_at: '2026-06-15T00:00:00Z',
    sources: {},
    counts: { identity: 0, tracked: 0, verified: 0, taxonomies: 0, rejects: 0 },
    objects: [{ key, kind: 'taxonomy', bytes: 13, sha256: 'x' }],
  };
  await store.put(manifestKey(id), JSON.stringify(manifest), 'application/json');
  await store.put(POINTER_KEY, JSON.stringify({ snapshot_id: id, manifest_key: manifestKey(id) }), 'application/json');
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pf-cache-unit-'));
  store = new FolderObjectStore(path.join(dir, 'store'));
  const download = store.download.bind(store);
  store.download = (key, file) => {
    downloads += 1;
    return download(key, file);
  };
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the snapshot cache', () => {
  it('re-reads the pointer only after its TTL, pins one snapshot per lease and cleans the old one after release', async () => {
    const A = '20260601T000000Z-aaaaaa';
    const B = '20260701T000000Z-bbbbbb';
    await publish(A);
    let now = 0;
    const closed: string[] = [];
    const cache = new SnapshotCache<string>({
      store,
      cacheDir: path.join(dir, 'cache'),
      pointerTtlMs: 60_000,
      nowMs: () => now,
      open: async (files) => files.id,
      close: async (id) => {
        closed.push(id);
      },
    });
    const first = await cache.acquire();
    expect(first.state).toBe(A);
    const [p1, p2] = await Promise.all([first.files.localPath(taxonomyKey(A)), first.files.localPath(taxonomyKey(A))]);
    expect(p1).toBe(p2);
    expect(downloads).toBe(1);
    expect(() => first.files.localPath('snapshots/x/../../etc/passwd')).toThrow();

    await publish(B);
    now = 59_999;
    const stillA = await cache.acquire();
    expect(stillA.state).toBe(A);
    stillA.release();
    now = 60_000;
    const second = await cache.acquire();
    expect(second.state).toBe(B);
    // The first request still holds A: its files stay until it is released.
    expect(existsSync(p1)).toBe(true);
    expect(first.files.id).toBe(A);
    first.release();
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toEqual([A]);
    expect(existsSync(p1)).toBe(false);
    second.release();
    await cache.close();
  });

  it('refuses to serve before any snapshot is published', async () => {
    const empty = new SnapshotCache({
      store: new FolderObjectStore(path.join(dir, 'empty')),
      cacheDir: path.join(dir, 'cache2'),
      open: async () => null,
    });
    await expect(empty.acquire()).rejects.toThrow('current.json');
  });
});
