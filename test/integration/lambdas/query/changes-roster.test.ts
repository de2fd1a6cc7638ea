/**
 * The change feed's two read paths agree: a roster answered from the months' NPI indexes (one record per NPI) gives
 * exactly the rows, total and order that the SQL over the month partitions gives, for random rosters (changed and
 * unchanged NPIs), kinds, scopes, `after` times and pages, on the A, B, C fixture built by the real ETL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { CHANGE_KINDS } from '../../../../data-contracts/changes';
import { VERTICALS } from '../../../../data-contracts/constants';
import { SnapshotChanges } from '../../../../lambdas/query/changes';
import type { ChangesQuery } from '../../../../lambdas/query/types';
import { SnapshotFilesImpl } from '../../../../lambdas/storage/snapshot-files';
import { createDuckDb, type DuckDb } from '../../../../platform/duckdb/pool';
import { readCurrentSnapshot } from '../../../../platform/snapshot-protocol';
import { buildChangesFixture, type ChangesFixture } from '../../../helpers/changes-fixture';

let dir: string;
let db: DuckDb;
let fixture: ChangesFixture;
let indexed: SnapshotChanges;
let scanned: SnapshotChanges;
/** NPIs with a change, and NPIs of the registry without one. */
let changed: string[];
const UNCHANGED = ['1003633876', '1508798976', '1234567893'];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pf-changes-roster-'));
  fixture = await buildChangesFixture(path.join(dir, 'data'), { through: 'c' });
  const current = await readCurrentSnapshot(fixture.store);
  if (current === null) throw new Error('no current snapshot');
  const files = new SnapshotFilesImpl(current.manifest, fixture.store, path.join(dir, 'cache'));
  db = await createDuckDb({ allowedDirectory: path.join(dir, 'cache'), threads: 2 });
  indexed = new SnapshotChanges(files, db);
  scanned = new SnapshotChanges(files, db, false);
  const all = await scanned.list({
    after: '2000-01-01T00:00:00Z',
    kinds: null,
    npis: null,
    identity: true,
    verticals: null,
    limit: 1000,
    offset: 0,
  });
  changed = [...new Set(all.rows.flatMap((r) => (r.npi === null ? [] : [r.npi])))];
}, 240_000);

afterAll(async () => {
  indexed?.close();
  db?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a roster from the NPI indexes', () => {
  it('lists every changed NPI of the fixture (the index has something to answer)', () => {
    expect(changed.length).toBeGreaterThanOrEqual(12);
  });

  it('answers exactly what the SQL over the partitions answers', async () => {
    const afters = ['2000-01-01T00:00:00Z', fixture.a.created_at, fixture.b.created_at, '2026-11-20T00:00:00Z'];
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom(...changed, ...UNCHANGED), { minLength: 1, maxLength: 12 }),
        fc.option(fc.uniqueArray(fc.constantFrom(...CHANGE_KINDS), { minLength: 1, maxLength: 4 }), { nil: null }),
        fc.boolean(),
        fc.option(fc.uniqueArray(fc.constantFrom(...VERTICALS), { maxLength: 2 }), { nil: null }),
        fc.constantFrom(...afters),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 6 }),
        async (npis, kinds, identity, verticals, after, limit, offset) => {
          const query: ChangesQuery = { after, kinds, npis, identity, verticals, limit, offset };
          const fromIndex = await indexed.list(query);
          const fromSql = await scanned.list(query);
          expect(fromIndex).toEqual(fromSql);
        },
      ),
      { numRuns: 150 },
    );
  });
});
