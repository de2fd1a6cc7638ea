/**
 * A throwaway DuckDB with the real staging tables (`nppes_stage`, `leie_stage`, created by the ETL's own functions)
 * that the matcher tests fill row by row, then run the real `buildOigCandidates` over.
 */
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { createLeieStage } from '../../../../etl/sources/leie';
import { createNppesStage, NPPES_STATUS } from '../../../../etl/sources/nppes-staged';
import { buildOigCandidates, type OigCandidateCounts } from '../../../../etl/sources/oig-candidates';
import { queryRows, runBound } from '../../../../platform/duckdb/statements';
import { KEYED_OF_CANDIDATES } from '../../../helpers/oig-keyed';

export interface NppesRow {
  npi: string;
  entity?: '1' | '2';
  last?: string | null;
  first?: string | null;
  middle?: string | null;
  org?: string | null;
  otherOrg?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  mailCity?: string | null;
  mailState?: string | null;
  mailZip?: string | null;
  status?: keyof typeof NPPES_STATUS;
  src?: number;
}

export interface LeieRow {
  last?: string | null;
  first?: string | null;
  middle?: string | null;
  business?: string | null;
  general?: string | null;
  specialty?: string | null;
  npi?: string | null;
  dob?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  type?: string;
  date?: string;
  reinstated?: string | null;
  src?: number;
  reason?: string | null;
}

export interface Candidate {
  strength: 'strong' | 'weak';
  evidence: Record<string, string | null>;
  leie: Record<string, string | null>;
}

export class OigStage {
  private constructor(
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
  ) {}

  static async open(): Promise<OigStage> {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    const connection = await instance.connect();
    await createNppesStage(connection);
    await createLeieStage(connection);
    return new OigStage(instance, connection);
  }

  async clear(): Promise<void> {
    await this.connection.run('DELETE FROM nppes_stage');
    await this.connection.run('DELETE FROM leie_stage');
    await this.connection.run('DROP TABLE IF EXISTS leie_in_force');
  }

  async nppes(row: NppesRow): Promise<void> {
    const entity = row.entity ?? (row.org ? '2' : '1');
    await runBound(
      this.connection,
      `INSERT INTO nppes_stage BY NAME SELECT $1::INTEGER AS src, $2 AS npi, $3::TINYINT AS status, $4 AS entity_type,
        $5 AS last_name, $6 AS first_name, $8 AS org_name, $10 AS city, $11 AS state, $12 AS postal_code,
        {'middle_name': $7, 'other_org_name': $9, 'mail_city': $13, 'mail_state': $14, 'mail_postal': $15} AS match_fields,
        'X' AS name`,
      [
        row.src ?? 0,
        row.npi,
        NPPES_STATUS[row.status ?? 'active'],
        entity,
        row.last ?? null,
        row.first ?? null,
        row.middle ?? null,
        row.org ?? null,
        row.otherOrg ?? null,
        row.city ?? null,
        row.state ?? null,
        row.zip ?? null,
        row.mailCity ?? null,
        row.mailState ?? null,
        row.mailZip ?? null,
      ],
    );
  }

  async leie(row: LeieRow): Promise<void> {
    await runBound(
      this.connection,
      `INSERT INTO leie_stage BY NAME SELECT $1::INTEGER AS src, $2 AS npi, $3 AS excl_type, $4::DATE AS excl_date,
        $5 AS reason, $6 AS last_name, $7 AS first_name, $8 AS mid_name, $9 AS bus_name, $10 AS general,
        $11 AS specialty, $12 AS city, $13 AS state, $14 AS zip, $15 AS dob, $16::DATE AS rein_date`,
      [
        row.src ?? 0,
        row.npi ?? null,
        row.type ?? '1128a1',
        row.date ?? '2020-01-15',
        row.reason ?? null,
        row.last ?? null,
        row.first ?? null,
        row.middle ?? null,
        row.business ?? null,
        row.general ?? null,
        row.specialty ?? null,
        row.city ?? null,
        row.state ?? null,
        row.zip ?? null,
        row.dob ?? null,
        row.reinstated ?? null,
      ],
    );
  }

  /** Runs the matcher; the candidates by NPI, and the raw table rows. */
  async match(): Promise<{
    counts: OigCandidateCounts;
    byNpi: Map<string, Candidate[]>;
    rows: { npi: string; candidates: string; candidate_count: number; keyed: string; rederived: string }[];
  }> {
    const counts = await buildOigCandidates(this.connection);
    const rows = (
      await queryRows(this.connection, `SELECT *, ${KEYED_OF_CANDIDATES} AS rederived FROM oig_candidate ORDER BY npi`)
    ).map((r) => ({
      npi: String(r.npi),
      candidates: String(r.candidates),
      candidate_count: Number(r.candidate_count),
      keyed: String(r.keyed),
      rederived: String(r.rederived),
    }));
    const byNpi = new Map(rows.map((r) => [r.npi, JSON.parse(r.candidates) as Candidate[]]));
    return { counts, byNpi, rows };
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
