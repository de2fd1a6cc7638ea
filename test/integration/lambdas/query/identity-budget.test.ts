/**
 * The API under the smallest memory budget (no identity partition fits in memory): concurrent first queries of every
 * identity partition of the real ETL's snapshot, over HTTP, all answer 200 with the rows of plain SQL over the
 * partitions' Parquet.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { MIN_BUDGET_MB, planMemory } from '../../../../data-contracts/memory-budget';
import { readCurrentSnapshot } from '../../../../platform/snapshot-protocol';
import { type ApiTestEnv, startApiTestEnv } from '../../../helpers/api-test-env';

jest.setTimeout(120_000);

let env: ApiTestEnv;
beforeAll(async () => {
  env = await startApiTestEnv({ storage: 'folder', memoryBudgetMb: MIN_BUDGET_MB });
});
afterAll(async () => env?.close());

interface Partition {
  classification: string;
  code: string;
  file: string;
}

it('answers concurrent first queries of every partition with the rows of plain SQL when none fits in memory', async () => {
  expect(planMemory(MIN_BUDGET_MB).identityResidentBytes).toBe(0);
  const current = await readCurrentSnapshot(env.store);
  if (current === null) throw new Error('no snapshot');
  const instance = await DuckDBInstance.create(':memory:');
  const sql = await instance.connect();
  try {
    // Each partition's Parquet, fetched from the store the API reads, and one of its codes and its classification.
    const lease = await env.runtime.snapshots.acquire();
    const partitions: Partition[] = [];
    try {
      const taxonomy = lease.files.objectsOf('taxonomy')[0];
      const taxonomyFile = await lease.files.localPath(String(taxonomy?.key));
      for (const object of lease.files.objectsOf('identity')) {
        if (object.classification_key === 'unmapped') continue;
        const file = await lease.files.localPath(object.key);
        const [row] = (
          await sql.runAndReadAll(
            `SELECT (SELECT min(taxonomy_code) FROM read_parquet($1)) AS code, classification
             FROM read_parquet($2) WHERE classification_key = $3 LIMIT 1`,
            [file, taxonomyFile, String(object.classification_key)],
          )
        ).getRowObjectsJson() as { code: string; classification: string }[];
        partitions.push({ classification: String(row?.classification), code: String(row?.code), file });
      }
    } finally {
      lease.release();
    }
    expect(partitions.length).toBeGreaterThan(30);
    expect(env.runtime.identity.stats().open).toEqual([]);

    const auth = { authorization: `Bearer ${env.keys.developer}` };
    const asks = partitions.flatMap((p) => [
      { p, code: null, url: `/api/v1/providers?taxonomy=${encodeURIComponent(p.classification)}&limit=5` },
      { p, code: p.code, url: `/api/v1/providers?taxonomy=${p.code}&limit=5` },
    ]);
    const responses = await Promise.all(asks.map((a) => env.get(a.url, auth)));
    for (const [i, res] of responses.entries()) {
      const ask = asks[i] as (typeof asks)[number];
      expect({ url: ask.url, status: res.status }).toEqual({ url: ask.url, status: 200 });
      const body = (await res.json()) as { pagination: { total: number }; data: { npi: string }[] };
      const where = ask.code === null ? 'class_rep' : 'taxonomy_code = $2';
      const params = ask.code === null ? [ask.p.file] : [ask.p.file, ask.code];
      const want = (
        await sql.runAndReadAll(
          `SELECT npi, count(*) OVER () AS total FROM read_parquet($1) WHERE ${where} ORDER BY npi LIMIT 5`,
          params,
        )
      ).getRowObjectsJson() as { npi: string; total: string }[];
      expect({ url: ask.url, total: body.pagination.total }).toEqual({ url: ask.url, total: Number(want[0]?.total) });
      expect(body.data.map((d) => d.npi)).toEqual(want.map((w) => w.npi));
    }
    expect(env.runtime.identity.stats()).toMatchObject({ resident: [], residentBytes: 0 });
    expect(env.runtime.identity.stats().open.length).toBe(partitions.length);
  } finally {
    sql.closeSync();
    instance.closeSync();
  }
});
