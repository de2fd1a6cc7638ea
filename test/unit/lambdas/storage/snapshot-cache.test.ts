import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LAYOUT_VERSION, manifestKey, POINTER_KEY, taxonomyKey } from '../../../../data-contracts/layout';
import { SnapshotCache } from '../../../../lambdas/storage/snapshot-cache';
import { FolderObjectStore } from '../../../../platform/folder-store';
import type { LogFields, Logger } from '../../../../platform/logger';
import { IntegrityError } from '../../../../platform/ranged/block-digests';

let dir: string;
let store: FolderObjectStore;
let downloads = 0;

async function publish(id: string, to: FolderObjectStore = store): Promise<void> {
  const key = taxonomyKey(id);
  await to.put(key, 'parquet bytes', 'application/octet-stream');
  const manifest = {
    layout_version: LAYOUT_VERSION,
    snapshot_id: id,
    created_at: '2026-06-15T00:00:00Z',
    sources: {},
    counts: { identity: 0, tracked: 0, verified: 0, taxonomies: 0, rejects: 0 },
    objects: [{ key, kind: 'taxonomy', bytes: 13, sha256: createHash('sha256').update('parquet bytes').digest('hex') }],
  };
  await to.put(manifestKey(id), JSON.stringify(manifest), 'application/json');
  await to.put(POINTER_KEY, JSON.stringify({ snapshot_id: id, manifest_key: manifestKey(id) }), 'application/json');
}

/** A logger whose `logged(message)` resolves with the fields of that event, once it is (or was) logged. */
function eventLogger(): Logger & { logged(message: string): Promise<LogFields> } {
  const seen = new Map<string, LogFields>();
  const waiting = new Map<string, ((fields: LogFields) => void)[]>();
  const record = (message: string, fields: LogFields = {}) => {
    seen.set(message, fields);
    for (const wake of waiting.get(message) ?? []) wake(fields);
    waiting.delete(message);
  };
  return {
    debug: record,
    info: record,
    warn: record,
    error: record,
    logged(message) {
      const fields = seen.get(message);
      if (fields !== undefined) return Promise.resolve(fields);
      return new Promise((resolve) => waiting.set(message, [...(waiting.get(message) ?? []), resolve]));
    },
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pf-cache-unit-'));
  store = new FolderObjectStore(path.join(dir, 'store'));
  const download = store.download.bind(store);
  store.download = (key, file, hash) => {
    downloads += 1;
    return download(key, file, hash);
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
    const logger = eventLogger();
    const cache = new SnapshotCache<string>({
      logger,
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
    // The load's log line says what it took: in all, the manifest's read and parse, and the opening of its state.
    const loaded = await logger.logged('snapshot_loaded');
    expect(loaded).toMatchObject({ snapshot_id: A, previous: null });
    for (const field of ['load_ms', 'manifest_ms', 'open_ms']) expect(loaded[field]).toEqual(expect.any(Number));
    expect((loaded.manifest_ms as number) + (loaded.open_ms as number)).toBeLessThanOrEqual(
      (loaded.load_ms as number) + 1,
    );
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
    // Releasing the last lease of A closes its state and deletes its files, then logs the release.
    expect(await logger.logged('snapshot_released')).toEqual({ snapshot_id: A });
    expect(closed).toEqual([A]);
    expect(existsSync(p1)).toBe(false);
    second.release();
    await cache.close();
  });

  it('does not remember a failed download: the next request downloads again', async () => {
    const C = '20260801T000000Z-cccccc';
    const own = new FolderObjectStore(path.join(dir, 'retry-store'));
    await publish(C, own);
    const download = own.download.bind(own);
    let failures = 1;
    own.download = (key, file, hash) => {
      if (failures > 0) {
        failures -= 1;
        return Promise.reject(new Error('connection reset'));
      }
      return download(key, file, hash);
    };
    const cache = new SnapshotCache({ store: own, cacheDir: path.join(dir, 'cache-retry'), open: async () => null });
    const lease = await cache.acquire();
    await expect(lease.files.localPath(taxonomyKey(C))).rejects.toThrow('connection reset');
    const file = await lease.files.localPath(taxonomyKey(C));
    expect(existsSync(file)).toBe(true);
    expect(await lease.files.localPath(taxonomyKey(C))).toBe(file);
    lease.release();
    await cache.close();
  });

  it('refuses an object whose bytes differ from the manifest, fetched twice, and serves it once it is right', async () => {
    const D = '20260901T000000Z-dddddd';
    const own = new FolderObjectStore(path.join(dir, 'tamper-store'));
    await publish(D, own);
    const key = taxonomyKey(D);
    // Same size, one byte changed: only the digest tells.
    await own.put(key, 'parquet bytez', 'application/octet-stream');
    let fetches = 0;
    const download = own.download.bind(own);
    own.download = (k, file, hash) => {
      fetches += 1;
      return download(k, file, hash);
    };
    const cache = new SnapshotCache({ store: own, cacheDir: path.join(dir, 'cache-tamper'), open: async () => null });
    const lease = await cache.acquire();
    await expect(lease.files.localPath(key)).rejects.toBeInstanceOf(IntegrityError);
    expect(fetches).toBe(2);
    await expect(lease.files.readSmall(key)).rejects.toThrow('do not match the manifest');
    // Nothing of the bad bytes is kept: once the object is right again, it is fetched and served.
    await own.put(key, 'parquet bytes', 'application/octet-stream');
    expect((await readFile(await lease.files.localPath(key))).toString()).toBe('parquet bytes');
    expect((await lease.files.readSmall(key)).toString()).toBe('parquet bytes');
    lease.release();
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
