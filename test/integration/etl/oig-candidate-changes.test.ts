/**
 * The change feed's OIG candidate kinds and `oig_removed`'s reason (data-contracts/changes.ts), computed by the
 * ETL's SQL (etl/changes) in DuckDB between a previous basis file and a new basis, both made from SQL rows here:
 * the candidate tables are the matcher's (`oig_candidate`, `oig_reinstated`), filled by hand.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { BASIS_TABLE, buildBasisFromCarried, parquetColumns } from '../../../etl/changes/basis';
import { addIdentityChanges, createStepTable, STEP_TABLE } from '../../../etl/changes/diff';
import { OIG_CANDIDATE_COLUMNS } from '../../../etl/sources/oig-candidates';
import { createOigNameMacros } from '../../../etl/transforms/oig-names';
import { writeBasisFile } from '../../../etl/writers/changes';
import { queryRows } from '../../../platform/duckdb/statements';
import { KEYED_OF_CANDIDATES } from '../../helpers/oig-keyed';
import { tempDir } from './helpers';

/** A wire candidate (OigCandidate) whose LEIE row is `name`, excluded on `date`. */
const candidate = (name: string, date: string, strength: 'strong' | 'weak' = 'strong') => ({
  strength,
  evidence: {
    last_name: 'exact',
    first_name: 'exact',
    middle_name: null,
    business_name: null,
    state: 'practice',
    city: strength === 'strong' ? 'practice' : null,
    zip: null,
  },
  leie: {
    entity: 'individual',
    last_name: name,
    first_name: 'ANA',
    middle_name: null,
    business_name: null,
    general: 'NURSING PROFESSION',
    specialty: 'NURSE/NURSES AIDE',
    city: 'PHOENIX',
    state: 'AZ',
    zip: '85004',
    npi: null,
    exclusion_type: '1128b4',
    exclusion_date: date,
  },
});
const C1 = candidate('MUÑOZ', '2019-03-20');
const C2 = candidate('O"BRIEN', '2018-01-02');
const C3 = candidate('SMITH', '2020-05-06');

const sql = (value: string | null) => (value === null ? 'NULL' : `'${value.replace(/'/g, "''")}'`);
const json = (value: unknown) => sql(JSON.stringify(value));

describe('the change feed: OIG candidates and reinstatements', () => {
  let dir: string;
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;

  beforeAll(async () => {
    dir = await tempDir('pf-etl-candidates-');
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
    // The basis keys candidates with the matcher's macros (a full build has made them by then).
    await createOigNameMacros(connection);
  });

  afterAll(async () => {
    connection.closeSync();
    instance.closeSync();
    await rm(dir, { recursive: true, force: true });
  });

  /** The matcher's tables and an empty `oig_match`, filled from `candidates` and `reinstated`. */
  async function oigTables(candidates: Record<string, unknown[]>, reinstated: Record<string, string>) {
    await connection.run('CREATE OR REPLACE TABLE oig_match (npi VARCHAR, oig_type VARCHAR, oig_date VARCHAR)');
    await connection.run(`CREATE OR REPLACE TABLE oig_candidate (${OIG_CANDIDATE_COLUMNS})`);
    await connection.run('CREATE OR REPLACE TABLE oig_reinstated (npi VARCHAR, rein_date VARCHAR)');
    for (const [npi, list] of Object.entries(candidates)) {
      await connection.run(`INSERT INTO oig_candidate VALUES (${sql(npi)}, ${json(list)}, ${list.length}, NULL)`);
    }
    await connection.run(`UPDATE oig_candidate SET keyed = (${KEYED_OF_CANDIDATES})`);
    for (const [npi, date] of Object.entries(reinstated)) {
      await connection.run(`INSERT INTO oig_reinstated VALUES (${sql(npi)}, ${sql(date)})`);
    }
  }

  /**
   * A basis of active NPIs (the table, and its file): `excluded` matched, `candidates` keyed as a full build keys
   * them (the basis module's SQL over `oig_candidate`), or null for no `oig_candidates` column at all.
   */
  async function basisFile(
    name: string,
    npis: string[],
    excluded: string[],
    candidates: Record<string, unknown[]> | null,
  ): Promise<string> {
    await oigTables(candidates ?? {}, {});
    for (const npi of excluded)
      await connection.run(`INSERT INTO oig_match VALUES (${sql(npi)}, '1128b4', '2019-03-20')`);
    const rows = npis
      .map(
        (npi) =>
          `(${sql(npi)}, 'active', NULL, 'NAME ${npi}', '163W00000X', 'AZ', ${excluded.includes(npi)}, ` +
          `${excluded.includes(npi) ? "'1128b4', '2019-03-20'" : 'NULL, NULL'})`,
      )
      .join(', ');
    const seed = path.join(dir, `${name}-seed.parquet`);
    await connection.run(
      `COPY (SELECT * FROM (VALUES ${rows}) t(npi, status, deactivation_date, name, primary_taxonomy, state,
         oig_excluded, oig_type, oig_date)) TO '${seed}' (FORMAT parquet)`,
    );
    // Carried from the seed (no candidate column), then given the keyed candidates a full build writes.
    await buildBasisFromCarried(connection, seed);
    if (candidates !== null) {
      await connection.run(`ALTER TABLE ${BASIS_TABLE} ADD COLUMN oig_candidates VARCHAR`);
      await connection.run(
        `UPDATE ${BASIS_TABLE} b SET oig_candidates = k.keyed FROM oig_candidate k WHERE k.npi = b.npi`,
      );
    }
    const file = path.join(dir, `${name}.parquet`);
    await writeBasisFile(connection, BASIS_TABLE, file);
    return file;
  }

  async function changes(oldFile: string) {
    await createStepTable(connection);
    await addIdentityChanges(connection, oldFile, BASIS_TABLE);
    const rows = await queryRows(
      connection,
      `SELECT kind, npi, field, old_value, new_value FROM ${STEP_TABLE} ORDER BY npi, kind, old_value, new_value`,
    );
    return rows.map((r) => ({
      kind: r.kind,
      npi: r.npi,
      field: r.field,
      old: r.old_value === null ? null : JSON.parse(String(r.old_value)),
      new: r.new_value === null ? null : JSON.parse(String(r.new_value)),
    }));
  }

  it('adds and removes candidates by their LEIE row, never for a strength change alone, and says why a match ended', async () => {
    const before = { '1000000001': [C1, C2], '1000000002': [] as unknown[] };
    const after = {
      '1000000001': [{ ...C1, strength: 'weak' }, C3],
      '1000000004': [C2],
    };
    const old = await basisFile(
      'old',
      ['1000000001', '1000000002', '1000000003', '1000000005'],
      ['1000000002', '1000000003'],
      before,
    );
    await basisFile('new', ['1000000001', '1000000002', '1000000003', '1000000004', '1000000005'], [], after);
    // This build's supplement reinstated 1000000002; 1000000003 is simply no longer listed under its NPI.
    await connection.run(`UPDATE ${BASIS_TABLE} SET oig_reinstated = '2026-10-15' WHERE npi = '1000000002'`);

    expect(await changes(old)).toEqual([
      { kind: 'oig_candidate_added', npi: '1000000001', field: null, old: null, new: C3 },
      { kind: 'oig_candidate_removed', npi: '1000000001', field: null, old: C2, new: null },
      {
        kind: 'oig_removed',
        npi: '1000000002',
        field: null,
        old: { type: '1128b4', date: '2019-03-20' },
        new: { reason: 'reinstated', date: '2026-10-15' },
      },
      {
        kind: 'oig_removed',
        npi: '1000000003',
        field: null,
        old: { type: '1128b4', date: '2019-03-20' },
        new: { reason: 'not_listed' },
      },
      // An NPI new to the basis with a candidate: added (as an NPI new to the basis that is matched).
      { kind: 'npi_enumerated', npi: '1000000004', field: null, old: null, new: expect.any(Object) },
      { kind: 'oig_candidate_added', npi: '1000000004', field: null, old: null, new: C2 },
    ]);
  });

  it('reports no candidate change against a basis written before candidates, and carries none from it', async () => {
    const old = await basisFile('pre-candidates', ['1000000001'], [], null);
    expect(await parquetColumns(connection, old)).not.toContain('oig_candidates');
    await basisFile('with-candidates', ['1000000001'], [], { '1000000001': [C1] });
    expect(await changes(old)).toEqual([]);

    // A build that reuses the layers carries that basis as it is: still no candidate column, so the step after it
    // does not report every candidate as new either.
    await buildBasisFromCarried(connection, old);
    const carried = path.join(dir, 'carried.parquet');
    await writeBasisFile(connection, BASIS_TABLE, carried);
    expect(await parquetColumns(connection, carried)).not.toContain('oig_candidates');
    expect(await parquetColumns(connection, carried)).toContain('oig_reinstated');
  });

  it('carries the candidates of a basis that has them, and takes the reinstatements from this build', async () => {
    const file = await basisFile('full', ['1000000001', '1000000002'], [], { '1000000001': [C1, C2] });
    await oigTables({}, { '1000000002': '2026-10-15' });
    await buildBasisFromCarried(connection, file);
    const rows = await queryRows(
      connection,
      `SELECT npi, oig_candidates, oig_reinstated FROM ${BASIS_TABLE} ORDER BY npi`,
    );
    const keyed = JSON.parse(String(rows[0]?.oig_candidates)) as { key: string; candidate: unknown }[];
    expect(keyed.map((k) => k.candidate)).toEqual([C1, C2]);
    expect(keyed.map((k) => k.key)).toEqual([
      expect.stringMatching(/^[0-9a-f]{32}$/),
      expect.stringMatching(/^[0-9a-f]{32}$/),
    ]);
    expect(rows.map((r) => r.oig_reinstated)).toEqual([null, '2026-10-15']);
  });
});
