/**
 * The change feed's fixture: the demo's snapshots A and B (and C, for the tests that span two steps),
 * built with the real ETL from the committed inputs into a folder store, so that B's (or C's) `changes` layer holds
 * exactly the changes listed in test/fixtures/changes/README.md. Used by the ETL's and the API's integration suites.
 */
import path from 'node:path';
import { type BuildSummary, buildSnapshot } from '../../etl/build';
import { DEMO_SNAPSHOT_TIMES, type DemoSnapshot, demoChangedInputs } from '../../etl/cli/demo-inputs';
import type { ChangeRow } from '../../lambdas/query/types';
import { FolderObjectStore } from '../../platform/folder-store';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface ChangesFixture {
  /** The folder store the snapshots were published to (its pointer names the last one). */
  store: FolderObjectStore;
  /** The build summaries (`snapshot_id`, `created_at`: the as-of time of each step's end), in build order. */
  a: BuildSummary;
  b: BuildSummary;
  /** Only when built `through: 'c'`. */
  c?: BuildSummary;
}

/**
 * Builds A (the committed demo inputs, as of {@link DEMO_SNAPSHOT_TIMES}.a), then B (test/fixtures/changes/b), then
 * with `through: 'c'` C (test/fixtures/changes/c) into the folder store at `dir`, with the real ETL. Takes a few
 * seconds per snapshot.
 * @example const { store, a, b } = await buildChangesFixture(await mkdtemp(path.join(tmpdir(), 'pf-changes-')));
 */
export async function buildChangesFixture(dir: string, options: { through?: 'b' | 'c' } = {}): Promise<ChangesFixture> {
  const store = new FolderObjectStore(dir);
  const build = (snapshot: DemoSnapshot) =>
    buildSnapshot({
      store,
      inputs: demoChangedInputs(snapshot, REPO_ROOT),
      snapshotTime: new Date(DEMO_SNAPSHOT_TIMES[snapshot]),
      duckdb: { threads: 2 },
    });
  const a = await build('a');
  const b = await build('b');
  if (options.through !== 'c') return { store, a, b };
  return { store, a, b, c: await build('c') };
}

/** One expected change row (the step's ids and as-of times aside), values as the JSON text stored in Parquet. */
export type ExpectedChange = Omit<ChangeRow, 'kind' | 'from_snapshot' | 'from_as_of' | 'to_snapshot' | 'to_as_of'> & {
  kind: string;
};

const identityChange = (
  kind: string,
  npi: string,
  old_value: string | null,
  new_value: string | null,
  field: string | null = null,
): ExpectedChange => ({ kind, npi, entity_id: null, vertical: null, field, old_value, new_value });

const verticalChange = (
  kind: string,
  npi: string,
  entity_id: string,
  old_value: string | null,
  new_value: string | null,
  field: string | null = null,
): ExpectedChange => ({ kind, npi, entity_id, vertical: 'glp1', field, old_value, new_value });

const DEACTIVATED = '{"deactivation_date":"2026-11-02"}';
const REINSTATED = '{"reason":"reinstated","date":"2026-11-01"}';
const FICTIONAL_CANDIDATE = JSON.stringify({
  strength: 'strong',
  evidence: {
    last_name: 'exact',
    first_name: 'exact',
    middle_name: 'exact',
    business_name: null,
    state: 'both',
    city: 'both',
    zip: 'both',
  },
  leie: {
    entity: 'individual',
    last_name: 'SAMPLEFICTIONAL',
    first_name: 'ALEX',
    middle_name: 'R',
    business_name: null,
    general: 'PHYSICIAN (MD, DO)',
    specialty: 'FAMILY PRACTICE',
    city: 'SPRINGFIELD',
    state: 'IL',
    zip: '62701',
    npi: null,
    exclusion_type: '1128a1',
    exclusion_date: '2026-10-20',
  },
});

/**
 * Every change of the fixture's steps A -> B and B -> C (test/fixtures/changes/README.md), sorted as the partitions
 * are (npi, entity_id, kind, field).
 */
export const EXPECTED_CHANGES: { b: ExpectedChange[]; c: ExpectedChange[] } = {
  b: [
    identityChange('npi_deactivated', '1023909249', null, DEACTIVATED),
    verticalChange('signal_changed', '1225144769', 'glp1-000004', '"verified"', '"flagged"', 'certification'),
    verticalChange(
      'signal_changed',
      '1225144769',
      'glp1-000004',
      '{"range":"$399-$549/mo","monthly_min":399.0,"monthly_max":549.0}',
      '{"range":"$449-$599/mo","monthly_min":449.0,"monthly_max":599.0}',
      'price',
    ),
    identityChange('name_changed', '1366380503', '"RYAN JAMES CROWLEY"', '"RYAN JAMES CROWLEY-BANKS"', 'name'),
    verticalChange(
      'verified_added',
      '1383705401',
      'glp1-000031',
      null,
      '{"name":"Harborview Family Weight Clinic","state":"FL"}',
    ),
    identityChange('primary_taxonomy_changed', '1437957537', '"175T00000X"', '"172V00000X"', 'primary_taxonomy'),
    identityChange('state_changed', '1578098257', '"WA"', '"OR"', 'state'),
    verticalChange(
      'verified_removed',
      '1623037201',
      'glp1-000002',
      '{"name":"Lakeshore Weight Care","state":"KY"}',
      null,
    ),
    identityChange('npi_deactivated', '1639924889', null, DEACTIVATED),
    identityChange(
      'npi_enumerated',
      '1679576722',
      null,
      '{"name":"DAVID A WIEBE, M.D.","primary_taxonomy":"207X00000X","state":"NE"}',
    ),
    identityChange('oig_excluded', '1730014689', null, '{"type":"1128b8","date":"2001-07-19"}'),
    identityChange('oig_excluded', '1750216602', null, '{"type":"1128b5","date":"2023-05-18"}'),
    identityChange('oig_excluded', '1922933878', null, '{"type":"1128b4","date":"1992-09-03"}'),
    identityChange('npi_deactivated', '1962105056', null, DEACTIVATED),
    // The demo's fictional OIG case (tools/demo/oig): a supplement reinstates one exclusion and adds one without an
    // NPI that a fictional record matches by name and place.
    identityChange('oig_removed', '1999999901', '{"type":"1128b4","date":"2025-09-15"}', REINSTATED),
    identityChange('oig_candidate_added', '1999999919', null, FICTIONAL_CANDIDATE),
  ],
  c: [
    identityChange('npi_reactivated', '1023909249', DEACTIVATED, null),
    identityChange('oig_removed', '1922933878', '{"type":"1128b4","date":"1992-09-03"}', '{"reason":"not_listed"}'),
  ],
};
