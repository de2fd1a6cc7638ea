/**
 * The change feed's ETL half (data-contracts/changes.ts): the basis, the step between two snapshots, the kept
 * span and its month partitions, on the real sample files and the derived inputs of test/fixtures/changes (README there).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { CHANGES_BASIS_TABLE, CHANGES_TABLE } from '../../../data-contracts/changes';
import type { SnapshotManifest } from '../../../data-contracts/layout';
import { type BuildInputs, type BuildSummary, buildSnapshot } from '../../../etl/build';
import { DEMO_CHANGED_LEIE_AS_OF, DEMO_SNAPSHOT_TIMES, demoChangedInputs } from '../../../etl/cli/demo-inputs';
import { FolderObjectStore } from '../../../platform/folder-store';
import { buildChangesFixture, type ChangesFixture, EXPECTED_CHANGES } from '../../helpers/changes-fixture';
import { checkDb, expectSnapshotComplete, REPO_ROOT, readJson, tempDir } from './helpers';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'changes');
const CHANGE_COLUMNS = 'kind, npi, entity_id, vertical, field, old_value, new_value';

describe('the change feed (ETL)', () => {
  let dir: string;
  let fixture: ChangesFixture;
  let db: Awaited<ReturnType<typeof checkDb>>;

  // Three full builds (A, B, C): on a busy 2-core machine they can take longer than jest's default minute.
  beforeAll(async () => {
    dir = await tempDir('pf-etl-changes-');
    fixture = await buildChangesFixture(path.join(dir, 'store'), { through: 'c' });
    db = await checkDb();
  }, 240_000);

  afterAll(async () => {
    db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const manifestOf = (summary: BuildSummary) => readJson<SnapshotManifest>(fixture.store, summary.manifest_key);
  const fileOf = (key: string) => `'${path.join(dir, 'store', key).replace(/'/g, "''")}'`;
  /** Every change row of a snapshot's month partitions, in partition order then row order. */
  const changeRows = async (manifest: SnapshotManifest, columns = CHANGE_COLUMNS) => {
    const months = manifest.objects.filter((o) => o.kind === 'changes');
    const rows: Record<string, unknown>[] = [];
    for (const m of months) rows.push(...(await db.rows(`SELECT ${columns} FROM read_parquet(${fileOf(m.key)})`)));
    return rows;
  };

  it('starts the chain at a first build: a basis, no step, the snapshot itself as the oldest since', async () => {
    const a = await manifestOf(fixture.a);
    expect(a.changes).toEqual({
      retention_months: 13,
      oldest_snapshot: fixture.a.snapshot_id,
      oldest_as_of: DEMO_SNAPSHOT_TIMES.a,
      steps: [],
    });
    expect(a.objects.filter((o) => o.kind === 'changes')).toEqual([]);
    expect(fixture.a.changes.step).toBeNull();
    const basis = a.objects.find((o) => o.kind === 'changes_basis');
    expect(basis?.key).toBe(`snapshots/${fixture.a.snapshot_id}/changes/basis.parquet`);
    const counts = await db.rows(
      `SELECT count(*) FILTER (status = 'active')::INTEGER AS active, count(*) FILTER (status = 'deactivated')::INTEGER AS deactivated,
         count(DISTINCT npi)::INTEGER AS npis, count(*)::INTEGER AS n FROM read_parquet(${fileOf(basis?.key ?? '')})`,
    );
    // 914 + 3 active NPIs (nppes_sample.csv, the pristine excerpt), the 2 fictional ones of tools/demo/oig, and the
    // sample's 4 deactivated ones.
    expect(counts[0]).toEqual({ active: a.counts.identity, deactivated: 4, npis: 923, n: 923 });
    expect(basis?.rows).toBe(923);
  });

  it('writes the basis with the contract columns, built as the identity layer builds name, state and primary taxonomy', async () => {
    const b = await manifestOf(fixture.b);
    const basis = fileOf(b.objects.find((o) => o.kind === 'changes_basis')?.key ?? '');
    const columns = await db.rows(`DESCRIBE SELECT * FROM read_parquet(${basis})`);
    expect(columns.map((c) => [c.column_name, c.column_type])).toEqual(Object.entries(CHANGES_BASIS_TABLE));
    const identity = `read_parquet('${path.join(dir, 'store', 'snapshots', fixture.b.snapshot_id, 'identity', '*', 'data.parquet')}', hive_partitioning = false)`;
    const mismatches = await db.rows(
      `WITH ident AS (
         SELECT npi, any_value(name) AS name, any_value(state) AS state, any_value(oig_excluded) AS oig,
           max(CASE WHEN is_primary THEN taxonomy_code END) AS primary_code
         FROM ${identity} GROUP BY npi)
       SELECT b.npi FROM read_parquet(${basis}) b FULL OUTER JOIN ident i ON i.npi = b.npi
       WHERE (b.status = 'active') IS DISTINCT FROM (i.npi IS NOT NULL)
         OR (i.npi IS NOT NULL AND (b.name IS DISTINCT FROM i.name OR b.state IS DISTINCT FROM i.state
           OR b.oig_excluded IS DISTINCT FROM i.oig
           OR (i.primary_code IS NOT NULL AND b.primary_taxonomy IS DISTINCT FROM i.primary_code)))`,
    );
    expect(mismatches).toEqual([]);
    const deactivated = await db.rows(
      `SELECT npi, deactivation_date, name, primary_taxonomy, state FROM read_parquet(${basis})
       WHERE npi IN ('1962105056', '1023909249', '1639924889') ORDER BY npi`,
    );
    expect(deactivated).toEqual(
      ['1023909249', '1639924889', '1962105056'].map((npi) => ({
        npi,
        deactivation_date: '2026-11-02',
        name: null,
        primary_taxonomy: null,
        state: null,
      })),
    );
  });

  it("records exactly B's changes against A, with their values, kinds, keys, step ids and as-of times", async () => {
    const b = await manifestOf(fixture.b);
    const step = {
      from_snapshot: fixture.a.snapshot_id,
      from_as_of: DEMO_SNAPSHOT_TIMES.a,
      to_snapshot: fixture.b.snapshot_id,
      to_as_of: DEMO_SNAPSHOT_TIMES.b,
    };
    expect(b.changes).toEqual({
      retention_months: 13,
      oldest_snapshot: fixture.a.snapshot_id,
      oldest_as_of: DEMO_SNAPSHOT_TIMES.a,
      steps: [{ ...step, changes: EXPECTED_CHANGES.b.length }],
    });
    const months = b.objects.filter((o) => o.kind === 'changes');
    expect(months.map((o) => [o.key, o.month, o.rows])).toEqual([
      [`snapshots/${fixture.b.snapshot_id}/changes/month=2026-11/data.parquet`, '2026-11', EXPECTED_CHANGES.b.length],
    ]);
    const rows = await changeRows(b, Object.keys(CHANGES_TABLE).join(', '));
    expect(rows).toEqual(EXPECTED_CHANGES.b.map((c) => ({ ...c, ...step })));
  });

  it('keeps A -> B and adds B -> C in C, one partition per month, oldest A', async () => {
    const c = await manifestOf(fixture.c as BuildSummary);
    const cId = fixture.c?.snapshot_id;
    expect(c.changes?.oldest_snapshot).toBe(fixture.a.snapshot_id);
    expect(c.changes?.oldest_as_of).toBe(DEMO_SNAPSHOT_TIMES.a);
    expect(c.changes?.steps.map((s) => [s.from_snapshot, s.to_snapshot, s.to_as_of, s.changes])).toEqual([
      [fixture.a.snapshot_id, fixture.b.snapshot_id, DEMO_SNAPSHOT_TIMES.b, EXPECTED_CHANGES.b.length],
      [fixture.b.snapshot_id, cId, DEMO_SNAPSHOT_TIMES.c, EXPECTED_CHANGES.c.length],
    ]);
    expect(c.objects.filter((o) => o.kind === 'changes').map((o) => [o.month, o.rows])).toEqual([
      ['2026-11', EXPECTED_CHANGES.b.length],
      ['2026-12', EXPECTED_CHANGES.c.length],
    ]);
    const rows = await changeRows(c, `${CHANGE_COLUMNS}, from_snapshot, to_snapshot`);
    expect(rows).toEqual([
      ...EXPECTED_CHANGES.b.map((x) => ({
        ...x,
        from_snapshot: fixture.a.snapshot_id,
        to_snapshot: fixture.b.snapshot_id,
      })),
      ...EXPECTED_CHANGES.c.map((x) => ({ ...x, from_snapshot: fixture.b.snapshot_id, to_snapshot: cId })),
    ]);
    await expectSnapshotComplete(fixture.store, (fixture.c as BuildSummary).manifest_key);
  });

  it('writes the month partitions with the contract columns, sorted by npi, entity_id, kind, field', async () => {
    const c = await manifestOf(fixture.c as BuildSummary);
    for (const m of c.objects.filter((o) => o.kind === 'changes')) {
      const columns = await db.rows(`DESCRIBE SELECT * FROM read_parquet(${fileOf(m.key)}, hive_partitioning = false)`);
      expect(columns.map((x) => [x.column_name, x.column_type])).toEqual(Object.entries(CHANGES_TABLE));
      const rows = await db.rows(`SELECT npi, entity_id, kind, field FROM read_parquet(${fileOf(m.key)})`);
      const sorted = await db.rows(
        `SELECT npi, entity_id, kind, field FROM read_parquet(${fileOf(m.key)}) ORDER BY npi, entity_id, kind, field`,
      );
      expect(rows).toEqual(sorted);
    }
  });
});

describe('the change feed over time and on reuse (ETL)', () => {
  let dir: string;
  let db: Awaited<ReturnType<typeof checkDb>>;

  beforeAll(async () => {
    dir = await tempDir('pf-etl-changes-time-');
    db = await checkDb();
  });

  afterAll(async () => {
    db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const build = (store: FolderObjectStore, inputs: BuildInputs, time: string) =>
    buildSnapshot({ store, inputs, snapshotTime: new Date(time), duckdb: { threads: 2 } });

  it('drops a whole step older than 13 months and records a step without changes', async () => {
    const store = new FolderObjectStore(path.join(dir, 'retention'));
    const a = await build(store, demoChangedInputs('a', REPO_ROOT), '2026-10-15T00:00:00Z');
    const b = await build(store, demoChangedInputs('b', REPO_ROOT), '2026-11-15T00:00:00Z');
    // 2027-12-20 minus 13 months is 2026-11-20: the step A -> B (to 2026-11-15) is out, B -> C (no change) stays.
    const c = await build(store, demoChangedInputs('b', REPO_ROOT), '2027-12-20T00:00:00Z');
    expect(b.changes.span.steps.map((s) => s.from_snapshot)).toEqual([a.snapshot_id]);
    expect(c.changes.span).toEqual({
      retention_months: 13,
      oldest_snapshot: b.snapshot_id,
      oldest_as_of: '2026-11-15T00:00:00Z',
      steps: [
        {
          from_snapshot: b.snapshot_id,
          from_as_of: '2026-11-15T00:00:00Z',
          to_snapshot: c.snapshot_id,
          to_as_of: '2027-12-20T00:00:00Z',
          changes: 0,
        },
      ],
    });
    const manifest = await readJson<SnapshotManifest>(store, c.manifest_key);
    expect(manifest.changes).toEqual(c.changes.span);
    expect(manifest.objects.filter((o) => o.kind === 'changes').map((o) => [o.month, o.rows])).toEqual([
      ['2027-12', 0],
    ]);
    await expectSnapshotComplete(store, c.manifest_key);
  });

  it('carries the basis in a feed-only (reuse) build, with its OIG columns from the LEIE list it screens with', async () => {
    const store = new FolderObjectStore(path.join(dir, 'reuse'));
    const a = await build(store, demoChangedInputs('a', REPO_ROOT), DEMO_SNAPSHOT_TIMES.a);
    const reuse = await build(
      store,
      {
        nppes: [],
        nucc: '',
        // B's LEIE files: the real list with B's changes, and the fictional case's list and supplement.
        leie: demoChangedInputs('b', REPO_ROOT).leie,
        leieAsOf: DEMO_CHANGED_LEIE_AS_OF,
        fda: [],
        feeds: [path.join(FIXTURES, 'b', 'glp1')],
        reuseIdentityFrom: 'current',
      },
      DEMO_SNAPSHOT_TIMES.b,
    );
    expect(reuse.reused_from).toBe(a.snapshot_id);
    const manifest = await readJson<SnapshotManifest>(store, reuse.manifest_key);
    // A feed-only build screens with B's LEIE files (its reinstatement included) but stages no NPPES: no candidates.
    const expected = EXPECTED_CHANGES.b.filter(
      (x) => x.kind === 'oig_excluded' || x.kind === 'oig_removed' || x.entity_id !== null,
    );
    expect(manifest.changes?.steps).toEqual([
      {
        from_snapshot: a.snapshot_id,
        from_as_of: DEMO_SNAPSHOT_TIMES.a,
        to_snapshot: reuse.snapshot_id,
        to_as_of: DEMO_SNAPSHOT_TIMES.b,
        changes: expected.length,
      },
    ]);
    const month = manifest.objects.find((o) => o.kind === 'changes');
    const rows = await db.rows(
      `SELECT ${CHANGE_COLUMNS} FROM read_parquet('${path.join(dir, 'reuse', month?.key ?? '')}')`,
    );
    expect(rows).toEqual(expected);
    // The basis is A's, NPI for NPI, but for the three NPIs the new LEIE list matches and the one it reinstates.
    const aBasis = path.join(dir, 'reuse', 'snapshots', a.snapshot_id, 'changes', 'basis.parquet');
    const rBasis = path.join(dir, 'reuse', 'snapshots', reuse.snapshot_id, 'changes', 'basis.parquet');
    const differ = await db.rows(
      `SELECT npi FROM (SELECT * FROM read_parquet('${rBasis}') EXCEPT SELECT * FROM read_parquet('${aBasis}')) ORDER BY npi`,
    );
    expect(differ.map((r) => r.npi)).toEqual(['1730014689', '1750216602', '1922933878', '1999999901']);
    const counts = await db.rows(
      `SELECT (SELECT count(*) FROM read_parquet('${rBasis}'))::INTEGER AS r, (SELECT count(*) FROM read_parquet('${aBasis}'))::INTEGER AS a`,
    );
    expect(counts[0]?.r).toBe(counts[0]?.a);
  });
});
