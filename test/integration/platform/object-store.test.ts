import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FolderObjectStore } from '../../../platform/folder-store';
import { assertSafeKey, type ObjectStore } from '../../../platform/object-store';
import { S3ObjectStore } from '../../../platform/s3-store';
import { type S3rverHandle, startS3rver } from '../../helpers/s3rver';

describe('assertSafeKey', () => {
  it.each(['../x', '/abs', 'a//b', 'a/../b', 'a b', ''])('refuses %j', (key) => {
    expect(() => assertSafeKey(key)).toThrow(/unsafe object key/);
  });
  it('accepts layout keys', () => {
    expect(
      assertSafeKey('snapshots/20261121T053800Z-abc123/vertical/verified/vertical=glp1/state=CA/data.parquet'),
    ).toBe('snapshots/20261121T053800Z-abc123/vertical/verified/vertical=glp1/state=CA/data.parquet');
  });
});

function behavesAsAnObjectStore(name: string, open: () => Promise<{ store: ObjectStore; close(): Promise<void> }>) {
  describe(name, () => {
    let store: ObjectStore;
    let close: () => Promise<void>;
    let scratch: string;
    beforeAll(async () => {
      ({ store, close } = await open());
      scratch = await mkdtemp(path.join(tmpdir(), 'store-scratch-'));
    });
    afterAll(async () => {
      await close();
      await rm(scratch, { recursive: true, force: true });
    });

    it('returns null for a missing key on head, getBytes and download', async () => {
      expect(await store.head('nope/missing.json')).toBeNull();
      expect(await store.getBytes('nope/missing.json')).toBeNull();
      expect(await store.download('nope/missing.json', path.join(scratch, 'missing'))).toBeNull();
    });

    it('round-trips bytes, and the etag changes when an object is overwritten', async () => {
      const first = await store.put('a/one.json', '{"v":1}', 'application/json');
      const got = await store.getBytes('a/one.json');
      expect(got?.body.toString()).toBe('{"v":1}');
      const second = await store.put('a/one.json', '{"v":22}', 'application/json');
      expect(second.etag).not.toBe(first.etag);
      expect((await store.head('a/one.json'))?.size).toBe(8);
    });

    it('uploads and downloads files, and lists keys under a prefix in order', async () => {
      const src = path.join(scratch, 'src.bin');
      const { writeFile } = await import('node:fs/promises');
      await writeFile(src, Buffer.alloc(70_000, 7));
      await store.upload('b/x/2.bin', src, 'application/octet-stream');
      await store.upload('b/x/1.bin', src, 'application/octet-stream');
      await store.put('b/y.json', '{}', 'application/json');
      const dest = path.join(scratch, 'dl', 'copy.bin');
      const info = await store.download('b/x/1.bin', dest);
      expect(info?.size).toBe(70_000);
      expect((await readFile(dest)).equals(Buffer.alloc(70_000, 7))).toBe(true);
      expect(await store.list('b/')).toEqual(['b/x/1.bin', 'b/x/2.bin', 'b/y.json']);
      expect(await store.list('b/x/')).toEqual(['b/x/1.bin', 'b/x/2.bin']);
    });
  });
}

behavesAsAnObjectStore('FolderObjectStore', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'folder-store-'));
  return { store: new FolderObjectStore(root), close: () => rm(root, { recursive: true, force: true }) };
});

behavesAsAnObjectStore('S3ObjectStore against s3rver', async () => {
  const s3: S3rverHandle = await startS3rver();
  return { store: new S3ObjectStore(s3.client, s3.bucket, 'pfx'), close: () => s3.stop() };
});
