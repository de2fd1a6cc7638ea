/**
 * The identity layer's in-memory columnar store (lambdas/query/identity-index.ts) against a straightforward SQL over
 * the same Parquet: a snapshot that the real ETL built from the benchmark's NPPES generator (20,000 rows), real
 * DuckDB on both sides. Also the row-budget LRU, the snapshot switch, the OIG match rows (a copy of a partition
 * with some rows marked excluded) and that no DuckDB table is ever created.
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { IDENTITY_TABLE } from '../../../data-contracts/layout';
import type { IdentityRow } from '../../../data-contracts/rows';
import { identityProviderFromRow } from '../../../data-contracts/rows';
import { generateNppesFile } from '../../../etl/bench/generate-nppes';
import { buildSnapshot } from '../../../etl/build';
import { demoBuildInputs } from '../../../etl/demo-inputs';
import {
  IdentityPartitionCache,
  identityRows,
  loadIdentityIndex,
  scanIdentityIndex,
} from '../../../lambdas/query/identity-index';
import { createSnapshotSource } from '../../../lambdas/query/provider-queries';
import { closeSnapshotTables, openSnapshotTables, type SnapshotTables } from '../../../lambdas/query/snapshot-tables';
import type { IdentityListQuery, ProviderData } from '../../../lambdas/query/types';
import { createDuckDb, type DuckDb } from '../../../lambdas/storage/duckdb';
import { FolderObjectStore } from '../../../lambdas/storage/object-store';
import { SnapshotCache } from '../../../lambdas/storage/snapshot-cache';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const COLUMNS = Object.keys(IDENTITY_TABLE);
const SELECT = COLUMNS.map((c) => `"${c}"`).join(', ');

jest.setTimeout(120_000);

let dir: string;
let dataDir: string;
let store: FolderObjectStore;
let db: DuckDb;
let cache: SnapshotCache<SnapshotTables>;
let reference: Awaited<ReturnType<Awaited<ReturnType<typeof DuckDBInstance.create>>['connect']>>;
let referenceInstance: DuckDBInstance;
let firstSnapshot: string;

/** Partitions of the snapshot by rows, largest first: key, file, classification name, commonest code/state/city. */
interface Probe {
  classificationKey: string;
  classification: string;
  file: string;
  rows: number;
  code: string;
  state: string;
  city: string;
}
let probes: Probe[];

async function ask<T extends Record<string, unknown>>(sql: string, params: (string | number)[] = []): Promise<T[]> {
  return (await reference.runAndReadAll(sql, params)).getRowObjectsJson() as T[];
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pf-identity-index-'));
  dataDir = path.join(dir, 'data');
  const nppes = path.join(dir, 'nppes.csv');
  await generateNppesFile({ rows: 20_000, outFile: nppes, seed: 7, progress: false });
  store = new FolderObjectStore(dataDir);
  const demo = demoBuildInputs(REPO_ROOT);
  firstSnapshot = (
    await buildSnapshot({
      store,
      inputs: { ...demo, nppes: [nppes] },
      snapshotTime: new Date('2026-11-01T00:00:00Z'),
      duckdb: { threads: 2 },
    })
  ).snapshot_id;

  referenceInstance = await DuckDBInstance.create(':memory:');
  reference = await referenceInstance.connect();
  const manifest = JSON.parse(
    (await store.getBytes(`snapshots/${firstSnapshot}/manifest.json`))?.body.toString('utf8') ?? '{}',
  ) as { objects: { key: string; kind: string; rows?: number; classification_key?: string }[] };
  const taxonomy = manifest.objects.find((o) => o.kind === 'taxonomy');
  const identity = manifest.objects
    .filter((o) => o.kind === 'identity' && o.classification_key !== 'unmapped')
    .sort((a, b) => (b.rows ?? 0) - (a.rows ?? 0))
    .slice(0, 3);
  probes = [];
  for (const object of identity) {
    const file = path.join(dataDir, object.key);
    const lit = `'${file.replace(/'/g, "''")}'`;
    const [top] = await ask<{ code: string; state: string }>(
      `SELECT taxonomy_code AS code, state FROM read_parquet(${lit}) GROUP BY ALL ORDER BY count(*) DESC, 1, 2 LIMIT 1`,
    );
    const [city] = await ask<{ city: string }>(
      `SELECT city FROM read_parquet(${lit}) WHERE city IS NOT NULL GROUP BY ALL ORDER BY count(*) DESC, 1 LIMIT 1`,
    );
    const [name] = await ask<{ classification: string }>(
      `SELECT classification FROM read_parquet('${path.join(dataDir, String(taxonomy?.key)).replace(/'/g, "''")}') ` +
        'WHERE classification_key = $1 LIMIT 1',
      [String(object.classification_key)],
    );
    probes.push({
      classificationKey: String(object.classification_key),
      classification: String(name?.classification),
      file,
      rows: object.rows ?? 0,
      code: String(top?.code),
      state: String(top?.state),
      city: String(city?.city),
    });
  }

  db = await createDuckDb({ allowedDirectory: path.join(dir, 'cache'), threads: 2 });
  // Room for the two largest partitions, not the third: the third query evicts the least recently used.
  const budget = (probes[0]?.rows ?? 0) + (probes[1]?.rows ?? 0);
  cache = new SnapshotCache<SnapshotTables>({
    store,
    cacheDir: path.join(dir, 'cache'),
    pointerTtlMs: 0,
    open: (files) => openSnapshotTables(files, db, { identityRowBudget: budget }),
    close: (tables) => closeSnapshotTables(tables),
  });
});

afterAll(async () => {
  await cache?.close();
  db?.close();
  reference?.closeSync();
  referenceInstance?.closeSync();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function probe(i: number): Probe {
  const p = probes[i];
  if (p === undefined) throw new Error(`no partition ${i}`);
  return p;
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
  const lit = `'${p.file.replace(/'/g, "''")}'`;
  const whereSql = `WHERE ${conditions.join(' AND ')}`;
  const [count] = (
    await reference.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet(${lit}) ${whereSql}`, params)
  ).getRowObjectsJson() as { n: number }[];
  const rows = (
    await reference.runAndReadAll(
      `SELECT ${SELECT} FROM read_parquet(${lit}) ${whereSql} ORDER BY npi, taxonomy_code LIMIT ${q.limit} OFFSET ${q.offset}`,
      params,
    )
  ).getRowObjectsJson() as IdentityRow[];
  return { total: Number(count?.n), rows };
}

async function withData<T>(work: (data: ProviderData) => Promise<T>): Promise<T> {
  return createSnapshotSource(cache).withSnapshot(work);
}

/** Every table of the API's DuckDB: the identity layer keeps none. */
async function tableNames(): Promise<string[]> {
  const rows = await db.query('SELECT table_name AS t FROM duckdb_tables()');
  return rows.map((r) => String(r.t)).sort();
}

/** A copy of `p`'s file inside the cache folder (the only folder the API's DuckDB may read). */
async function copyOf(p: Probe, name = p.classificationKey): Promise<string> {
  const target = path.join(dir, 'cache', 'copies', `${name}.parquet`);
  await mkdir(path.dirname(target), { recursive: true });
  await copyFile(p.file, target);
  return target;
}

describe('identity lists from the index', () => {
  const query = (over: Partial<IdentityListQuery>): IdentityListQuery => ({
    taxonomy: '',
    state: null,
    city: null,
    limit: 50,
    offset: 0,
    ...over,
  });

  it('answers code, classification, state and city filters with the totals and pages of plain SQL', async () => {
    const p = probe(0);
    const cases: [IdentityListQuery, string | null][] = [
      [query({ taxonomy: p.code }), p.code],
      [query({ taxonomy: p.code.toLowerCase(), state: p.state }), p.code],
      [query({ taxonomy: p.classification }), null],
      [query({ taxonomy: p.classification.toUpperCase(), state: p.state, limit: 7 }), null],
      [query({ taxonomy: p.classification, city: p.city.toUpperCase() }), null],
      [query({ taxonomy: p.code, state: p.state, city: p.city.toLowerCase(), limit: 3, offset: 1 }), p.code],
      [query({ taxonomy: p.classification, state: 'ZZ' }), null],
      [query({ taxonomy: p.classification, city: 'No Such City' }), null],
    ];
    let answered = 0;
    await withData(async (data) => {
      for (const [q, code] of cases) {
        const want = await expected(p, q, code);
        const got = await data.listIdentity(q);
        expect({ q, total: got.total }).toEqual({ q, total: want.total });
        expect(got.rows).toEqual(want.rows);
        if (want.rows.length > 0) answered += 1;
      }
    });
    // Only the two impossible filters are empty.
    expect(answered).toBe(cases.length - 2);
  });

  it('pages deep offsets, the last partial page and the empty page at offset = total like plain SQL', async () => {
    const p = probe(0);
    await withData(async (data) => {
      const all = await expected(p, query({ taxonomy: p.classification, limit: 1, offset: 0 }), null);
      const total = all.total;
      expect(total).toBeGreaterThan(1000);
      for (const [offset, limit] of [
        [Math.floor(total * 0.8), 50],
        [total - (total % 50 || 50), 50],
        [total - 1, 1000],
        [total, 50],
        [Math.floor(total / 2), 1000],
      ] as const) {
        const q = query({ taxonomy: p.classification, offset, limit });
        const want = await expected(p, q, null);
        const got = await data.listIdentity(q);
        expect(got.total).toBe(total);
        expect(got.rows).toEqual(want.rows);
      }
      // A sparse page (code + state) at a deep offset: fetched by a rowid list, still in NPI order.
      const sparse = await expected(p, query({ taxonomy: p.code, state: p.state, limit: 1 }), p.code);
      const q = query({ taxonomy: p.code, state: p.state, offset: Math.max(0, sparse.total - 20), limit: 50 });
      expect((await data.listIdentity(q)).rows).toEqual((await expected(p, q, p.code)).rows);
    });
  });

  it('shares one load between concurrent first queries of a partition', async () => {
    const p = probe(1);
    const partitions = new IdentityPartitionCache(db);
    let loads = 0;
    const file = () => {
      loads += 1;
      return copyOf(p);
    };
    const indexes = await Promise.all(
      Array.from({ length: 8 }, () => partitions.use(p.classificationKey, p.rows, file, (index) => index)),
    );
    expect(loads).toBe(1);
    expect(new Set(indexes).size).toBe(1);
    expect(indexes[0]?.rowCount).toBe(p.rows);
    partitions.clear();
  });

  it('evicts the least recently used partition beyond the row budget, and reloads it on demand', async () => {
    await withData(async (data) => {
      await data.listIdentity(query({ taxonomy: probe(0).classification }));
      await data.listIdentity(query({ taxonomy: probe(1).classification }));
    });
    await withData(async (data) => {
      // Partition 0 is used again, so partition 1 is the least recently used when partition 2 loads.
      await data.listIdentity(query({ taxonomy: probe(0).classification }));
      await data.listIdentity(query({ taxonomy: probe(2).classification }));
    });
    const lease = await cache.acquire();
    try {
      const keyOf = (i: number) => lease.state.identityPartitions.get(probe(i).classificationKey)?.key;
      expect(lease.state.identity.loadedKeys).toEqual([keyOf(0), keyOf(2)]);
      expect(lease.state.identity.loadedRows).toBe(probe(0).rows + probe(2).rows);
    } finally {
      lease.release();
    }
    // The evicted partition loads again and still answers like plain SQL.
    await withData(async (data) => {
      const q = query({ taxonomy: probe(1).classification, offset: 10 });
      const got = await data.listIdentity(q);
      const want = await expected(probe(1), q, null);
      expect(got.total).toBe(want.total);
      expect(got.rows).toEqual(want.rows);
    });
    // Served from JS memory: DuckDB holds no table.
    expect(await tableNames()).toEqual([]);
  });

  it('forgets the partitions of a snapshot when a new snapshot replaces it', async () => {
    await withData((data) => data.listIdentity(query({ taxonomy: probe(0).code })));
    const old = await cache.acquire();
    const oldPartitions = old.state.identity;
    old.release();
    expect(oldPartitions.loadedKeys.length).toBeGreaterThan(0);
    const second = (
      await buildSnapshot({
        store,
        inputs: demoBuildInputs(REPO_ROOT),
        snapshotTime: new Date('2026-11-02T00:00:00Z'),
        duckdb: { threads: 2 },
      })
    ).snapshot_id;
    expect(second).not.toBe(firstSnapshot);
    await cache.refresh();
    expect(cache.currentId).toBe(second);
    await new Promise((r) => setTimeout(r, 100));
    expect(oldPartitions.loadedKeys).toEqual([]);
    expect(await tableNames()).toEqual([]);
  });
});

describe('IdentityPartitionCache', () => {
  it('lets a query finish on a partition evicted while it runs', async () => {
    const p0 = probe(0);
    const p1 = probe(1);
    const partitions = new IdentityPartitionCache(db, { rowBudget: p0.rows });
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((r) => {
      entered = r;
    });
    const first = partitions.use(
      p0.classificationKey,
      p0.rows,
      () => copyOf(p0),
      async (index) => {
        entered();
        await held;
        return scanIdentityIndex(index, { code: p0.code, state: null, city: null, limit: 1, offset: 0 }).total;
      },
    );
    await inside;
    await partitions.use(
      p1.classificationKey,
      p1.rows,
      () => copyOf(p1),
      () => undefined,
    );
    expect(partitions.loadedKeys).toEqual([p1.classificationKey]);
    release();
    const want = await expected(p0, { taxonomy: p0.code, state: null, city: null, limit: 1, offset: 0 }, p0.code);
    expect(await first).toBe(want.total);
    partitions.clear();
    await expect(
      partitions.use(
        p0.classificationKey,
        p0.rows,
        () => copyOf(p0),
        () => 1,
      ),
    ).rejects.toThrow(/closed/);
  });
});

describe('OIG match rows', () => {
  it('come out of the store with their cells, in the match shape, like plain SQL', async () => {
    const p = probe(0);
    // A copy of the partition with every NPI ending in 7 excluded, one row with oig_excluded NULL.
    const source = `'${p.file.replace(/'/g, "''")}'`;
    const target = path.join(dir, 'cache', 'copies', 'oig.parquet');
    await mkdir(path.dirname(target), { recursive: true });
    const select = COLUMNS.map((c) => {
      if (c === 'oig_excluded') {
        return "CASE WHEN npi LIKE '%7' THEN true WHEN npi = (SELECT min(npi) FROM src) THEN NULL ELSE oig_excluded END AS oig_excluded";
      }
      if (c === 'oig_type') return "CASE WHEN npi LIKE '%7' THEN '1128(a)(1)' ELSE oig_type END AS oig_type";
      if (c === 'oig_date') return "CASE WHEN npi LIKE '%7' THEN '2019-05-20' ELSE oig_date END AS oig_date";
      if (c === 'oig_checked_at') {
        return "CASE WHEN npi LIKE '%7' THEN '2026-10-30' ELSE oig_checked_at END AS oig_checked_at";
      }
      return `"${c}"`;
    });
    await reference.run(
      `COPY (WITH src AS (SELECT * FROM read_parquet(${source})) SELECT ${select.join(', ')} FROM src) ` +
        `TO '${target.replace(/'/g, "''")}' (FORMAT parquet)`,
    );
    const copy: Probe = { ...p, file: target };
    const index = await loadIdentityIndex(db, target);
    expect(index.oig.size).toBeGreaterThan(0);
    const q: IdentityListQuery = { taxonomy: p.classification, state: null, city: null, limit: 1000, offset: 0 };
    const want = await expected(copy, q, null);
    const { total, rowids } = scanIdentityIndex(index, { code: null, state: null, city: null, limit: 1000, offset: 0 });
    const rows = identityRows(index, rowids);
    expect(total).toBe(want.total);
    expect(rows).toEqual(want.rows);
    const matches = rows.filter((r) => r.oig_excluded === true);
    expect(matches.length).toBeGreaterThan(10);
    for (const row of matches) {
      expect(identityProviderFromRow(row).oig).toEqual({
        excluded: true,
        type: '1128(a)(1)',
        date: '2019-05-20',
        source: expect.any(String),
        checked_at: '2026-10-30',
      });
    }
    const others = rows.filter((r) => r.oig_excluded !== true);
    expect(others.some((r) => r.oig_excluded === null)).toBe(true);
    for (const row of others) expect(identityProviderFromRow(row).oig).toMatchObject({ npi_match: 'none' });
  });
});
