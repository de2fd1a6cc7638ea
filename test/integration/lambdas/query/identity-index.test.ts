/**
 * The identity serving indexes (platform/identity-index, lambdas/query/identity-partitions.ts) against plain SQL over
 * the same partitions' Parquet: a snapshot that the real ETL built from the benchmark's NPPES generator (20,000
 * rows) and a LEIE file naming some of its NPIs, real DuckDB on the reference side. Also the memory budget: answers
 * from disk and from memory are the same, resident bytes never pass the budget, concurrent first queries of more
 * partitions than the budget holds all answer, a snapshot switch closes the old snapshot's files.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { identityRowList, identityRowsOf } from '../../../../data-contracts/identity-json';
import { IDENTITY_TABLE } from '../../../../data-contracts/layout';
import type { IdentityRow } from '../../../../data-contracts/rows';
import { identityProviderFromRow } from '../../../../data-contracts/rows';
import { buildSnapshot } from '../../../../etl/build';
import { demoBuildInputs } from '../../../../etl/cli/demo-inputs';
import { IdentityPartitions } from '../../../../lambdas/query/identity-partitions';
import { createSnapshotSource } from '../../../../lambdas/query/provider-queries';
import {
  closeSnapshotTables,
  openSnapshotTables,
  type SnapshotTables,
} from '../../../../lambdas/query/snapshot-tables';
import type { IdentityListQuery, ProviderData } from '../../../../lambdas/query/types';
import { SnapshotCache } from '../../../../lambdas/storage/snapshot-cache';
import { FileSource } from '../../../../platform/binary/file-source';
import { createDuckDb, type DuckDb } from '../../../../platform/duckdb/pool';
import { FolderObjectStore } from '../../../../platform/folder-store';
import { IdentityIndexReader } from '../../../../platform/identity-index/reader';
import { generateNppesFile } from '../../../../tools/bench-data/generate-nppes';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');
// The API's identity row: the partition's columns but the radius search's place and entity type.
const SELECT = Object.keys(IDENTITY_TABLE)
  .filter((c) => c !== 'postal_code' && c !== 'entity_type')
  .map((c) => `"${c}"`)
  .join(', ');
const LEIE_AS_OF = '2026-10-30T00:00:00Z';

jest.setTimeout(180_000);

let dir: string;
let dataDir: string;
let store: FolderObjectStore;
let db: DuckDb;
let reference: Awaited<ReturnType<Awaited<ReturnType<typeof DuckDBInstance.create>>['connect']>>;
let referenceInstance: DuckDBInstance;
let firstSnapshot: string;
/** NPIs of the generated file named in the LEIE input. */
let excludedNpis: string[];

/** A partition of the snapshot: its Parquet file, index object, classification name, commonest code/state/city. */
interface Probe {
  classificationKey: string;
  classification: string;
  file: string;
  indexKey: string;
  indexBytes: number;
  rows: number;
  code: string;
  state: string;
  city: string;
}
/** Every partition but `unmapped`, largest first. */
let probes: Probe[];

async function ask<T extends Record<string, unknown>>(sql: string, params: (string | number)[] = []): Promise<T[]> {
  return (await reference.runAndReadAll(sql, params)).getRowObjectsJson() as T[];
}
const lit = (file: string) => `'${file.replace(/'/g, "''")}'`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pf-identity-index-'));
  dataDir = path.join(dir, 'data');
  const nppes = path.join(dir, 'nppes.csv');
  await generateNppesFile({ rows: 20_000, outFile: nppes, seed: 7, progress: false });
  referenceInstance = await DuckDBInstance.create(':memory:');
  reference = await referenceInstance.connect();

  // A LEIE file (the real header) naming every NPI of the file that ends in 37: real matches through the ETL.
  const header = (await readFile(path.join(REPO_ROOT, 'test/fixtures/source-data/leie_head.csv'), 'utf8')).split(
    '\n',
  )[0];
  excludedNpis = (
    await ask<{ npi: string }>(
      `SELECT "NPI" AS npi FROM read_csv(${lit(nppes)}, all_varchar = true) WHERE "NPI" LIKE '%37' ORDER BY 1`,
    )
  ).map((r) => r.npi);
  const leie = path.join(dir, 'leie.csv');
  await writeFile(
    leie,
    `${header}\n${excludedNpis.map((npi) => `"DOE","JANE","","","","","","${npi}","19700101","","","TX","","1128a1","20190520","00000000","00000000",""`).join('\n')}\n`,
  );

  store = new FolderObjectStore(dataDir);
  const demo = demoBuildInputs(REPO_ROOT);
  firstSnapshot = (
    await buildSnapshot({
      store,
      inputs: { ...demo, nppes: [nppes], leie: [leie], leieAsOf: LEIE_AS_OF },
      snapshotTime: new Date('2026-11-01T00:00:00Z'),
      duckdb: { threads: 2 },
    })
  ).snapshot_id;

  const manifest = JSON.parse(
    (await store.getBytes(`snapshots/${firstSnapshot}/manifest.json`))?.body.toString('utf8') ?? '{}',
  ) as { objects: { key: string; kind: string; bytes: number; rows?: number; classification_key?: string }[] };
  const taxonomy = manifest.objects.find((o) => o.kind === 'taxonomy');
  const indexOf = new Map(
    manifest.objects.filter((o) => o.kind === 'identity_index').map((o) => [o.classification_key, o]),
  );
  probes = [];
  for (const object of manifest.objects.filter((o) => o.kind === 'identity' && o.classification_key !== 'unmapped')) {
    const file = path.join(dataDir, object.key);
    const [top] = await ask<{ code: string; state: string }>(
      `SELECT taxonomy_code AS code, state FROM read_parquet(${lit(file)}) GROUP BY ALL ORDER BY count(*) DESC, 1, 2 LIMIT 1`,
    );
    // The commonest city of the code's commonest state (the bench's cities lie in their state, as in NPPES).
    const [city] = await ask<{ city: string }>(
      `SELECT city FROM read_parquet(${lit(file)}) WHERE city IS NOT NULL AND taxonomy_code = $1 AND state = $2
       GROUP BY ALL ORDER BY count(*) DESC, 1 LIMIT 1`,
      [String(top?.code), String(top?.state)],
    );
    const [name] = await ask<{ classification: string }>(
      `SELECT classification FROM read_parquet(${lit(path.join(dataDir, String(taxonomy?.key)))}) ` +
        'WHERE classification_key = $1 LIMIT 1',
      [String(object.classification_key)],
    );
    const index = indexOf.get(object.classification_key);
    if (index === undefined) throw new Error(`no serving index for ${object.key}`);
    probes.push({
      classificationKey: String(object.classification_key),
      classification: String(name?.classification),
      file,
      indexKey: index.key,
      indexBytes: index.bytes,
      rows: object.rows ?? 0,
      code: String(top?.code),
      state: String(top?.state),
      city: String(city?.city),
    });
  }
  probes.sort((a, b) => b.rows - a.rows);
  db = await createDuckDb({ allowedDirectory: path.join(dir, 'cache'), threads: 2 });
});

afterAll(async () => {
  db?.close();
  reference?.closeSync();
  referenceInstance?.closeSync();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Bytes of the meta region of partition `i`'s index (held in memory while it is open). */
function metaOf(i: number): number {
  const source = new FileSource(path.join(dataDir, probe(i).indexKey));
  try {
    return IdentityIndexReader.open(source).metaLength;
  } finally {
    source.close();
  }
}

function probe(i: number): Probe {
  const p = probes[i];
  if (p === undefined) throw new Error(`no partition ${i}`);
  return p;
}

/** A snapshot cache whose identity partitions share `partitions`. */
function cacheWith(partitions: IdentityPartitions, cacheDir = path.join(dir, 'cache')): SnapshotCache<SnapshotTables> {
  return new SnapshotCache<SnapshotTables>({
    store,
    cacheDir,
    pointerTtlMs: 0,
    open: (files) => openSnapshotTables(files, db, partitions),
    close: (tables) => closeSnapshotTables(tables),
  });
}

/** The same query as plain SQL over the Parquet file: the contract's meaning of an identity list. */
async function expected(
  p: Probe,
  q: IdentityListQuery,
  code: string | null,
): Promise<{ total: number; rows: IdentityRow[] }> {
  const conditions: string[] = [code === null ? 'class_rep' : 'taxonomy_code = $code'];
  const params: Record<string, string | number> = {};
  if (code !== null) params.code = code;
  if (q.state !== null) {
    conditions.push('state = $state');
    params.state = q.state;
  }
  if (q.city !== null) {
    conditions.push('lower(city) = lower($city)');
    params.city = q.city;
  }
  const whereSql = `WHERE ${conditions.join(' AND ')}`;
  const [count] = (
    await reference.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet(${lit(p.file)}) ${whereSql}`, params)
  ).getRowObjectsJson() as { n: number }[];
  const rows = (
    await reference.runAndReadAll(
      `SELECT ${SELECT} FROM read_parquet(${lit(p.file)}) ${whereSql} ORDER BY npi LIMIT ${q.limit} OFFSET ${q.offset}`,
      params,
    )
  ).getRowObjectsJson() as IdentityRow[];
  return { total: Number(count?.n), rows };
}

const query = (over: Partial<IdentityListQuery>): IdentityListQuery => ({
  taxonomy: '',
  state: null,
  city: null,
  limit: 50,
  offset: 0,
  ...over,
});

/** Queries of every shape on partition `p`, with the code they read (null: a classification query). */
function shapes(p: Probe): [IdentityListQuery, string | null][] {
  return [
    [query({ taxonomy: p.code }), p.code],
    [query({ taxonomy: p.code.toLowerCase(), state: p.state }), p.code],
    [query({ taxonomy: p.classification }), null],
    [query({ taxonomy: p.classification.toUpperCase(), state: p.state, limit: 7 }), null],
    [query({ taxonomy: p.classification, city: p.city.toUpperCase() }), null],
    [query({ taxonomy: p.classification, state: p.state, city: p.city.toLowerCase() }), null],
    [query({ taxonomy: p.code, city: p.city }), p.code],
    [query({ taxonomy: p.code, state: p.state, city: p.city.toLowerCase(), limit: 3, offset: 1 }), p.code],
    [query({ taxonomy: p.classification, limit: 1000 }), null],
    [query({ taxonomy: p.classification, state: 'ZZ' }), null],
    [query({ taxonomy: p.classification, city: 'No Such City' }), null],
  ];
}

async function expectLikeSql(data: ProviderData, p: Probe, cases: [IdentityListQuery, string | null][]) {
  let answered = 0;
  for (const [q, code] of cases) {
    const want = await expected(p, q, code);
    const got = await data.listIdentity(q);
    expect({ q, total: got.total }).toEqual({ q, total: want.total });
    expect(identityRowList(got.rows)).toEqual(want.rows);
    if (want.rows.length > 0) answered += 1;
  }
  return answered;
}

/** Waits until no partition of `partitions` is loading (the background reads into memory). */
async function settled(partitions: IdentityPartitions): Promise<void> {
  while (partitions.stats().loading.length > 0) await new Promise((r) => setImmediate(r));
  // One more turn: a load's completion runs after its read resolves.
  await new Promise((r) => setImmediate(r));
}

describe('identity lists from the serving index', () => {
  it('answers every filter shape with the totals and pages of plain SQL, from disk and from memory', async () => {
    const onDisk = new IdentityPartitions({ residentBytes: 0 });
    const inMemory = new IdentityPartitions({ residentBytes: 1024 ** 3 });
    const disk = cacheWith(onDisk, path.join(dir, 'cache', 'disk'));
    const memory = cacheWith(inMemory, path.join(dir, 'cache', 'memory'));
    try {
      for (const p of [probe(0), probe(1)]) {
        const answered = await createSnapshotSource(disk).withSnapshot((data) => expectLikeSql(data, p, shapes(p)));
        // Only the two impossible filters are empty.
        expect(answered).toBe(shapes(p).length - 2);
        // First use: answered from the file while the load runs; then from memory.
        await createSnapshotSource(memory).withSnapshot((data) => expectLikeSql(data, p, shapes(p)));
        await settled(inMemory);
        await createSnapshotSource(memory).withSnapshot((data) => expectLikeSql(data, p, shapes(p)));
      }
      expect(onDisk.stats().resident).toEqual([]);
      expect(inMemory.stats().resident).toEqual(expect.arrayContaining([probe(0).indexKey, probe(1).indexKey]));
    } finally {
      await disk.close();
      await memory.close();
    }
  });

  it('pages deep offsets, the last partial page and the empty page at offset = total like plain SQL', async () => {
    const cache = cacheWith(new IdentityPartitions({ residentBytes: 0 }));
    const p = probe(0);
    try {
      await createSnapshotSource(cache).withSnapshot(async (data) => {
        const { total } = await expected(p, query({ taxonomy: p.classification, limit: 1 }), null);
        expect(total).toBeGreaterThan(1000);
        for (const [offset, limit] of [
          [Math.floor(total * 0.8), 50],
          [total - (total % 50 || 50), 50],
          [total - 1, 1000],
          [total, 50],
          [Math.floor(total / 2), 1000],
        ] as const) {
          const q = query({ taxonomy: p.classification, offset, limit });
          const got = await data.listIdentity(q);
          expect(got.total).toBe(total);
          expect(identityRowList(got.rows)).toEqual((await expected(p, q, null)).rows);
        }
        const sparse = await expected(p, query({ taxonomy: p.code, state: p.state, limit: 1 }), p.code);
        const q = query({ taxonomy: p.code, state: p.state, offset: Math.max(0, sparse.total - 20), limit: 50 });
        expect(identityRowList((await data.listIdentity(q)).rows)).toEqual((await expected(p, q, p.code)).rows);
      });
    } finally {
      await cache.close();
    }
  });

  it('carries the LEIE matches of the ETL in the match shape, like plain SQL', async () => {
    const cache = cacheWith(new IdentityPartitions({ residentBytes: 0 }));
    try {
      let matched = 0;
      await createSnapshotSource(cache).withSnapshot(async (data) => {
        for (const p of probes.slice(0, 4)) {
          const q = query({ taxonomy: p.classification, limit: 1000 });
          const got = await data.listIdentity(q);
          const rows = identityRowList(got.rows);
          expect(rows).toEqual((await expected(p, q, null)).rows);
          for (const row of rows) {
            if (excludedNpis.includes(String(row.npi))) {
              matched += 1;
              expect(identityProviderFromRow(row).oig).toEqual({
                excluded: true,
                type: '1128a1',
                date: '2019-05-20',
                source: 'oig_leie',
                checked_at: LEIE_AS_OF,
              });
            } else {
              expect(identityProviderFromRow(row).oig).toMatchObject({ npi_match: 'none' });
            }
          }
        }
      });
      expect(matched).toBeGreaterThan(10);
    } finally {
      await cache.close();
    }
  });
});

describe('IdentityPartitions within a memory budget', () => {
  it('shares one open between concurrent first queries of a partition', async () => {
    const partitions = new IdentityPartitions({ residentBytes: 0 });
    const p = probe(1);
    const cache = cacheWith(partitions);
    try {
      const lease = await cache.acquire();
      let opens = 0;
      const file = () => {
        opens += 1;
        return lease.files.localPath(p.indexKey);
      };
      const totals = await Promise.all(
        Array.from({ length: 8 }, () =>
          partitions.use(
            p.indexKey,
            file,
            (r) => r.query({ code: null, state: null, city: null, limit: 1, offset: 0 }).total,
          ),
        ),
      );
      lease.release();
      expect(opens).toBe(1);
      expect(new Set(totals)).toEqual(new Set([(await expected(p, query({ taxonomy: 'x' }), null)).total]));
    } finally {
      await cache.close();
    }
  });

  it('keeps resident bytes within the budget, admitting a partition only when used more than what it pushes out', async () => {
    // Room for two whole files and the meta regions (directory, dictionaries) of the three partitions used.
    const budget = probe(0).indexBytes + probe(1).indexBytes + metaOf(0) + metaOf(1) + metaOf(2);
    let now = 0;
    const partitions = new IdentityPartitions({ residentBytes: budget, nowMs: () => now });
    const cache = cacheWith(partitions);
    const touch = async (i: number) => {
      await createSnapshotSource(cache).withSnapshot((data) =>
        data.listIdentity(query({ taxonomy: probe(i).classification })),
      );
      await settled(partitions);
      expect(partitions.stats().residentBytes).toBeLessThanOrEqual(budget);
    };
    try {
      await touch(0);
      await touch(1);
      await touch(1);
      expect(partitions.stats().resident).toEqual([probe(0).indexKey, probe(1).indexKey]);
      // Partition 2 does not fit beside them: used once, as often as partition 0, it is answered from disk.
      await touch(2);
      expect(partitions.stats().resident.sort()).toEqual([probe(0).indexKey, probe(1).indexKey].sort());
      // Used a second time, more than partition 0: partition 0 makes room, partition 1 (used twice) stays.
      await touch(2);
      expect(partitions.stats().resident.sort()).toEqual([probe(1).indexKey, probe(2).indexKey].sort());
      // Partition 0, used three times now, would push partition 2 out: not within 10 s of the last swap.
      await touch(0);
      await touch(0);
      now += 9_999;
      await touch(0);
      expect(partitions.stats().resident.sort()).toEqual([probe(1).indexKey, probe(2).indexKey].sort());
      // 10 s on: partition 0 comes in; of the two used twice, the least recently used (1) makes room.
      now += 1;
      await touch(0);
      expect(partitions.stats().resident.sort()).toEqual([probe(0).indexKey, probe(2).indexKey].sort());
      // The demoted partition still answers like plain SQL, from disk.
      await createSnapshotSource(cache).withSnapshot((data) => expectLikeSql(data, probe(1), shapes(probe(1))));
    } finally {
      await cache.close();
    }
  });

  it('answers concurrent first queries of more partitions than the budget holds, every one like plain SQL', async () => {
    // Room for the smallest partition only; every partition's first query at once.
    const budget = Math.min(...probes.map((p) => p.indexBytes));
    const partitions = new IdentityPartitions({ residentBytes: budget });
    const cache = cacheWith(partitions, path.join(dir, 'cache', 'burst'));
    try {
      expect(probes.length).toBeGreaterThan(20);
      const cases = probes.flatMap((p) => [
        [p, query({ taxonomy: p.classification, state: p.state, limit: 20 }), null] as const,
        [p, query({ taxonomy: p.code, limit: 20, offset: 5 }), p.code] as const,
      ]);
      const answers = await Promise.all(
        cases.map(([, q]) => createSnapshotSource(cache).withSnapshot((data) => data.listIdentity(q))),
      );
      for (const [i, [p, q, code]] of cases.entries()) {
        const want = await expected(p, q, code);
        expect(answers[i]?.total).toBe(want.total);
        expect(identityRowList(answers[i]?.rows ?? identityRowsOf([]))).toEqual(want.rows);
      }
      await settled(partitions);
      // Meta regions that would pass the budget are not held (those partitions read them from disk); every query
      // was answered.
      expect(partitions.stats().residentBytes).toBeLessThanOrEqual(budget);
      expect(partitions.stats().open.length).toBeGreaterThan(0);
    } finally {
      await cache.close();
    }
  });

  it('closes the partitions of a snapshot when a new snapshot replaces it', async () => {
    const partitions = new IdentityPartitions({ residentBytes: 1024 ** 3 });
    const cache = cacheWith(partitions, path.join(dir, 'cache', 'switch'));
    try {
      await createSnapshotSource(cache).withSnapshot((data) => data.listIdentity(query({ taxonomy: probe(0).code })));
      await settled(partitions);
      expect(partitions.stats().open).toEqual([probe(0).indexKey]);
      const second = (
        await buildSnapshot({
          store,
          inputs: demoBuildInputs(REPO_ROOT),
          snapshotTime: new Date('2026-11-02T00:00:00Z'),
          duckdb: { threads: 2 },
          // The demo snapshot replaces a larger generated one on purpose: past the ETL's shrink guard.
          allowShrink: true,
        })
      ).snapshot_id;
      expect(second).not.toBe(firstSnapshot);
      await cache.refresh();
      expect(cache.currentId).toBe(second);
      // Disposal of the released snapshot is asynchronous (it has no lease): wait for it, without a timer.
      while (partitions.stats().open.some((k) => k.includes(firstSnapshot))) await new Promise((r) => setImmediate(r));
      expect(partitions.stats()).toMatchObject({ open: [], resident: [], residentBytes: 0 });
    } finally {
      await cache.close();
    }
  });
});
