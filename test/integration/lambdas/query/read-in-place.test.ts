/**
 * Reading in place (docs/read-in-place.md), through the real API over the demo snapshot built by the real ETL from
 * the committed samples, on the folder store and on s3rver through the real S3 client:
 * - every object read in place has block digests in the manifest; a reader over its ranges answers every query of
 *   the real samples as a brute-force reader of the whole file does;
 * - a byte changed in a stored object (an identity index block, an NPI bucket's record, a search index, a block
 *   digests object, a static JSON) is never served: the request that needs it gets 503 `service_unavailable` with
 *   `Retry-After`, the log has the `IntegrityFailure` metric line, and the rest of the snapshot keeps answering;
 * - so is an NPI bucket's line of the manifest that does not parse (the API parses it when a lookup first needs it,
 *   platform/npi-bucket-entries.ts): the snapshot loads, and only that bucket's lookups are refused.
 */
import { open } from 'node:fs/promises';
import type { IdentityRows } from '../../../../data-contracts/identity-json';
import {
  blockDigestsKey,
  LAYOUT_VERSION,
  type ManifestObject,
  manifestKey,
  type SnapshotManifest,
} from '../../../../data-contracts/layout';
import { BlockCache } from '../../../../platform/binary/block-cache';
import { BufferSource } from '../../../../platform/binary/byte-source';
import { FolderObjectStore } from '../../../../platform/folder-store';
import { type IdentityIndexQuery, IdentityIndexReader } from '../../../../platform/identity-index/reader';
import { NpiIndexReader } from '../../../../platform/npi-index/reader';
import { readInPlace } from '../../../../platform/ranged/read-in-place';
import { SearchIndexReader } from '../../../../platform/search-index/reader';
import { readManifest, readPointer } from '../../../../platform/snapshot-protocol';
import { type ApiTestEnv, publishEtlSnapshot, SNAPSHOTS, startApiTestEnv } from '../../../helpers/api-test-env';

jest.setTimeout(180_000);

const ANSWERS = [
  '/api/v1/providers?taxonomy=101Y00000X&limit=5',
  '/api/v1/providers?taxonomy=counselor&state=TX&limit=50',
  '/api/v1/providers?name=smi&state=TX',
  '/api/v1/providers?postal_code=77030&state=TX&entity_type=individual',
  '/api/v1/npi/1003633876',
  '/api/v1/npi/1508798976',
  '/api/v1/npi?numbers=1003633876,1114636115,1234567893',
];

async function manifestOf(env: ApiTestEnv): Promise<SnapshotManifest> {
  const pointer = await readPointer(env.store);
  return readManifest(env.store, (pointer as { snapshot_id: string }).snapshot_id);
}

/** A body without what changes from call to call (the request id, the key's usage). */
function strip(body: string): string {
  return body.replace(/"request_id":"[^"]*"/, '').replace(/"usage":\{[^}]*\}/, '');
}

async function bytesOf(env: ApiTestEnv, key: string): Promise<Buffer> {
  const found = await env.store.getBytes(key);
  if (found === null) throw new Error(`${key} is missing`);
  return found.body;
}

/** Flips one byte of a stored object at `at` (from the end when negative): the same size, other bytes. */
async function tamper(env: ApiTestEnv, key: string, at: number): Promise<void> {
  const found = await env.store.getBytes(key);
  if (found === null) throw new Error(`${key} is missing`);
  const bytes = Buffer.from(found.body);
  const i = at < 0 ? bytes.length + at : at;
  const flipped = Buffer.of((bytes[i] as number) ^ 0x5a);
  const local = env.store.localFile?.(key);
  if (local === undefined) {
    bytes[i] = flipped[0] as number;
    await env.store.put(key, bytes, 'application/octet-stream');
    return;
  }
  // In the file itself, as a disk error would (a new file would leave open descriptors on the old bytes).
  const handle = await open(local, 'r+');
  await handle.write(flipped, 0, 1, i);
  await handle.close();
}

async function expectRefused(env: ApiTestEnv, target: string, headers: Record<string, string>): Promise<void> {
  const res = await env.get(target, headers);
  const body = (await res.json()) as { code: string };
  expect({ target, status: res.status, code: body.code }).toEqual({
    target,
    status: 503,
    code: 'service_unavailable',
  });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(env.logs.some((line) => line.includes('"metric":"IntegrityFailure"'))).toBe(true);
}

describe.each(['folder', 's3'] as const)('reading in place, %s store', (storage) => {
  let env: ApiTestEnv;
  let manifest: SnapshotManifest;
  let auth: Record<string, string>;
  /** The objects the tamper test changed (and their block digests' data objects). */
  const tampered = new Set<string>();

  beforeAll(async () => {
    env = await startApiTestEnv({ storage });
    manifest = await manifestOf(env);
    auth = { authorization: `Bearer ${env.keys.developer}` };
  });
  afterAll(() => env.close());

  it('reads the identity indexes, search indexes and NPI buckets in place, each with its block digests', () => {
    const ranged = manifest.objects.filter((o) => ['identity_index', 'search', 'npi'].includes(o.kind));
    expect(ranged.length).toBeGreaterThan(10);
    for (const object of ranged) expect(object.block_digests?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.objects.filter((o) => o.kind === 'npi').every((o) => o.key.endsWith('/records.npi'))).toBe(true);
    expect(manifest.layout_version).toBe(LAYOUT_VERSION);
  });

  it('answers, then refuses what was changed in the store and keeps answering the rest', async () => {
    const before = new Map<string, { status: number; body: string }>();
    for (const target of ANSWERS) {
      const res = await env.get(target, auth);
      before.set(target, { status: res.status, body: strip(await res.text()) });
      expect(res.status).toBe(200);
    }

    // An identity index not read yet (its first record), an NPI bucket's last record, a search index's block
    // digests, and a static JSON: each refused on its first read.
    const used = new Set(['counselor']);
    const identity = manifest.objects
      .filter((o) => o.kind === 'identity_index' && !used.has(o.classification_key ?? ''))
      .sort((a, b) => (b.rows ?? 0) - (a.rows ?? 0))[0] as ManifestObject;
    const index = IdentityIndexReader.open(new BufferSource(await bytesOf(env, identity.key)));
    const code = index.text('codes', 1) as string;
    await tamper(env, identity.key, index.sections.records[0]);
    tampered.add(identity.key);
    // The largest bucket's last record: far from the records answered above (and from its directory).
    const bucket = manifest.objects
      .filter((o) => o.kind === 'npi')
      .sort((a, b) => b.bytes - a.bytes)[0] as ManifestObject;
    const npis = NpiIndexReader.open(new BufferSource(await bytesOf(env, bucket.key)));
    const lastNpi = npis.npiAt(npis.count - 1);
    await tamper(env, bucket.key, -2);
    tampered.add(bucket.key);
    const search = manifest.objects.find((o) => o.kind === 'search' && o.state === 'CA') as ManifestObject;
    await tamper(env, blockDigestsKey(search.key), -1);
    tampered.add(search.key);
    const coverage = manifest.objects.find((o) => o.kind === 'static' && o.key.endsWith('/coverage.json'));
    await tamper(env, (coverage as ManifestObject).key, 10);

    await expectRefused(env, `/api/v1/providers?taxonomy=${code}&limit=1`, auth);
    if (storage === 's3') await expectRefused(env, `/api/v1/npi/${lastNpi}`, auth);
    else {
      // A local folder's bucket is copied whole (and checked) into the arena once per process: the copy placed by
      // the answers above is the right one, and keeps answering.
      expect((await env.get(`/api/v1/npi/${lastNpi}`, auth)).status).toBe(200);
    }
    await expectRefused(env, '/api/v1/providers?name=sm&state=CA', auth);
    await expectRefused(env, '/api/v1/coverage', {});

    // What was read before (and verified then) keeps answering byte for byte.
    for (const target of ANSWERS) {
      const res = await env.get(target, auth);
      const body = strip(await res.text());
      expect({ target, status: res.status, body }).toEqual({ target, ...before.get(target) });
    }
  });

  it('reads every other index of the real samples as the whole file does (a brute-force reader)', async () => {
    const lease = await env.runtime.snapshots.acquire();
    try {
      const rows = (page: IdentityRows) => Array.from({ length: page.length }, (_, i) => page.row(i));
      for (const object of manifest.objects.filter((o) => o.kind === 'identity_index' && !tampered.has(o.key))) {
        const whole = IdentityIndexReader.open(new BufferSource(await bytesOf(env, object.key)));
        const opened = await lease.files.openIndex(object.key, new BlockCache(4));
        const reader = await readInPlace(() => IdentityIndexReader.open(opened.source));
        const codes = whole.source.u32(whole.sections.codes[0]);
        const asked: IdentityIndexQuery[] = [];
        for (const code of [null, ...Array.from({ length: codes }, (_, i) => whole.text('codes', i + 1))]) {
          for (const state of [null, 'TX', 'CA']) {
            asked.push(
              { code, state, city: null, limit: 50, offset: 0 },
              { code, state, city: null, limit: 3, offset: 2 },
            );
          }
          // Each place of the code's first rows: the clustered city lists.
          for (const row of rows(whole.query({ code, state: null, city: null, limit: 5, offset: 0 }).rows)) {
            if (typeof row.state === 'string' && typeof row.city === 'string') {
              asked.push({ code, state: row.state, city: row.city.toLowerCase(), limit: 50, offset: 0 });
            }
          }
        }
        for (const q of asked) {
          const expected = whole.query(q);
          const got = await readInPlace(() => {
            const r = reader.query(q);
            return { total: r.total, rows: rows(r.rows) };
          });
          expect(got).toEqual({ total: expected.total, rows: rows(expected.rows) });
        }
        opened.source.close();
      }
      for (const object of manifest.objects.filter((o) => o.kind === 'npi' && !tampered.has(o.key))) {
        const whole = NpiIndexReader.open(new BufferSource(await bytesOf(env, object.key)));
        const opened = await lease.files.openIndex(object.key, new BlockCache(4));
        const reader = await readInPlace(() => NpiIndexReader.open(opened.source));
        for (let i = 0; i < whole.count; i += 1) {
          const npi = whole.npiAt(i);
          const got = await readInPlace(() => reader.findBytes(npi));
          expect(got?.toString('hex')).toBe(whole.findBytes(npi)?.toString('hex'));
        }
        opened.source.close();
      }
      for (const object of manifest.objects.filter((o) => o.kind === 'search' && !tampered.has(o.key))) {
        const whole = SearchIndexReader.open(new BufferSource(await bytesOf(env, object.key)));
        const opened = await lease.files.openIndex(object.key, new BlockCache(4));
        const reader = await readInPlace(() => SearchIndexReader.open(opened.source));
        const asked = [
          ...['sm', 'jo', 'ma', 'a', 'the', 'zz'].map((name) => ({ name, postalCode: null })),
          ...['77030', '90210', '10001'].map((postalCode) => ({ name: null, postalCode })),
        ];
        for (const { name, postalCode } of asked) {
          const q = { name, postalCode, entityType: null, city: null, taxonomy: null, limit: 20, offset: 0 };
          const expected = whole.search(q);
          const got = await readInPlace(() => {
            const r = reader.search(q);
            return { total: r.total, rows: rows(r.rows) };
          });
          expect(got).toEqual({ total: expected.total, rows: rows(expected.rows) });
        }
        opened.source.close();
      }
    } finally {
      lease.release();
    }
  });
});

describe('a torn NPI bucket line in the manifest, folder store', () => {
  let env: ApiTestEnv;
  let auth: Record<string, string>;

  beforeAll(async () => {
    env = await startApiTestEnv({
      storage: 'folder',
      publish: async (folder) => {
        const store = new FolderObjectStore(folder);
        const id = await publishEtlSnapshot(store, SNAPSHOTS.demo.time);
        // The bucket of 1003633876 loses a quote: its line no longer parses; every other line is as published.
        const found = await store.getBytes(manifestKey(id));
        if (found === null) throw new Error('no manifest');
        const text = found.body.toString('utf8');
        const torn = text.replace(/("npi_bucket":"1[0-9]*)"/, '$1');
        expect(torn).not.toBe(text);
        await store.put(manifestKey(id), torn, 'application/json');
      },
    });
    auth = { authorization: `Bearer ${env.keys.developer}` };
  });
  afterAll(() => env.close());

  it('loads the snapshot, refuses the lookups of that bucket with 503 and answers every other query', async () => {
    // The snapshot loads: a bucket's line is read when a lookup first needs that bucket.
    expect((await env.get('/api/v1/providers?taxonomy=101Y00000X&limit=5', auth)).status).toBe(200);
    expect((await env.get('/api/v1/providers?name=smi&state=TX', auth)).status).toBe(200);
    await expectRefused(env, '/api/v1/npi/1003633876', auth);
    await expectRefused(env, '/api/v1/npi?numbers=1003633876,1114636115', auth);
    expect((await env.get('/api/v1/coverage', {})).status).toBe(200);
  });
});
