/**
 * The OIG possible matches: every active NPPES record against the LEIE exclusions in force that carry no NPI, or an
 * NPI that no NPPES row of the build has (those can never match by NPI), by name and place. The result is
 * `oig_candidate (npi, candidates, candidate_count)`: one row per active NPI with at least one candidate,
 * `candidates` the JSON array of the contract's `OigCandidate` objects (members in the contract's order), strong
 * first, then the latest exclusion, then by name.
 *
 * Rules (the normaliser and the evidence are SQL macros: transforms/oig-names.ts):
 * - an individual (LEIE BUSNAME empty; NPPES entity 1) is kept when the last names agree (`exact`, or `part`: one
 *   part of a hyphenated or several-word name) and the first names agree `exact`, or by `initial` with some place
 *   agreement; `strong` when the first name is `exact`, the city or ZIP agrees (either address) and the middle names
 *   do not conflict (both present, different first letters);
 * - an organisation (BUSNAME set; NPPES entity 2) is kept when its business name's key equals the NPPES legal
 *   business name's (`legal`) or other organisation name's (`other`), or, when the LEIE name fills its field (LEIE
 *   cuts longer names), when it is the start of one of them (`legal_prefix`, `other_prefix`); `strong` when the
 *   city or ZIP agrees too;
 * - place: the LEIE STATE, CITY and ZIP (5 digits) against NPPES's practice-location and mailing addresses.
 *
 * Blocking keeps it cheap at national size: a pair is only looked at when its last-name key (or one part of a
 * several-part name) and first initial are equal, or its business keys are; each NPPES record is normalised once.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryNumber, queryRows, runBound } from '../../platform/duckdb/statements';
import { createOigNameMacros } from '../transforms/oig-names';
import { LEIE_FIELD_BOUNDS } from './field-bounds';
import { applyLeieReinstatements } from './leie-reinstatements';
import { latestNppesRowsSql, NPPES_STATUS } from './nppes-staged';

export interface OigCandidateCounts {
  /** Active NPIs with at least one candidate. */
  npis: number;
  /** Candidates over every NPI. */
  candidates: number;
  strong: number;
  /** LEIE exclusions in force looked for (no NPI, or an NPI that NPPES lacks). */
  leie_rows: number;
}

/** The LEIE exclusions in force that can only be found by name, with their normalised keys. */
/**
 * LEIE cuts BUSNAME at its field width: a name that fills it may be the start of a longer one (22 of the 92
 * organisations of the committed LEIE slice do), so it is also looked for as a prefix of the NPPES names. One
 * character short of the width counts too: a name cut just after a space is staged trimmed.
 */
const LEIE_BUSNAME_WIDTH: number = LEIE_FIELD_BOUNDS.BUSNAME ?? Number.NaN;
if (!Number.isInteger(LEIE_BUSNAME_WIDTH)) throw new Error('LEIE_FIELD_BOUNDS lacks the BUSNAME width');
/** The characters of a cut name's normalised form that block its prefix search (a cut name keeps about 25). */
const PREFIX_BLOCK = 12;

const ELIGIBLE_LEIE_SQL = `
  CREATE OR REPLACE TABLE oig_leie AS
  WITH known AS (
    SELECT DISTINCT npi FROM nppes_stage WHERE npi IN (SELECT npi FROM leie_in_force WHERE npi IS NOT NULL)
  ), keyed AS (
    SELECT row, npi, excl_type, excl_date, last_name, first_name, mid_name, bus_name, general, specialty, city,
      state, zip,
      oig_person_tokens(last_name) AS ltoks, oig_first_token(first_name) AS fname,
      oig_first_token(mid_name) AS mname, oig_org_key(bus_name) AS okey, oig_norm(city) AS ncity,
      CASE WHEN length(bus_name) >= ${LEIE_BUSNAME_WIDTH - 1} THEN oig_norm(bus_name) END AS oprefix
    FROM leie_in_force WHERE npi IS NULL OR npi NOT IN (SELECT npi FROM known)
  )
  SELECT *, nullif(array_to_string(ltoks, ''), '') AS lkey,
    hash(oig_leie_key(CASE WHEN bus_name IS NULL THEN 'individual' ELSE 'organization' END, last_name, first_name,
      mid_name, bus_name, general, specialty, state, npi, excl_type, strftime(excl_date, '%Y-%m-%d'))) AS khash
  FROM keyed`;

/** The blocking keys of a person's last name: its key, and each part when it has several. */
const blockKeysSql = (tokens: string) =>
  `CASE WHEN len(${tokens}) >= 2 THEN list_append(${tokens}, array_to_string(${tokens}, '')) ELSE [array_to_string(${tokens}, '')] END`;

/**
 * The NPPES side, normalised once: `oig_nppes` holds each NPI's latest non-rejected staged row when it is active
 * (`$1` the rejected status, `$2` the active one; a person needs a last and a first name), with the normalised
 * names the evidence compares; `oig_people` and `oig_orgs` its blocking keys (a person's last-name key and each
 * part, with the first initial; an organisation's legal and other name keys and normalised names).
 */
const nppesSql = (latest: string) => `
  CREATE OR REPLACE TABLE oig_nppes AS
   WITH latest AS (${latest})
   SELECT srow, npi, entity_type, oig_person_tokens(last_name) AS ltoks, oig_first_token(first_name) AS fname,
     oig_first_token(match_fields.middle_name) AS mname, oig_org_key(org_name) AS legal,
     oig_org_key(match_fields.other_org_name) AS other, oig_norm(org_name) AS nlegal, oig_norm(match_fields.other_org_name) AS nother,
     city, state, postal_code, match_fields.mail_city, match_fields.mail_state, match_fields.mail_postal
   FROM latest
   WHERE status = $2
     AND ((entity_type = '1' AND last_name IS NOT NULL AND first_name IS NOT NULL) OR entity_type = '2')`;
const NPPES_BLOCKS_SQL = [
  `CREATE OR REPLACE TABLE oig_people AS
   SELECT srow, npi, fname, left(fname, 1) AS finit, unnest(${blockKeysSql('ltoks')}) AS bkey FROM oig_nppes
   WHERE entity_type = '1' AND len(ltoks) >= 1 AND fname IS NOT NULL`,
  `CREATE OR REPLACE TABLE oig_orgs AS
   SELECT srow, npi, unnest([legal, other]) AS okey, unnest([nlegal, nother]) AS nname
   FROM oig_nppes WHERE entity_type = '2'`,
];

/** The blocks of the LEIE people of `from`: one row per last-name key (or part) with the first name and initial. */
const leiePersonBlocksSql = (from: string) => `
  SELECT DISTINCT row, unnest(${blockKeysSql('ltoks')}) AS bkey, left(fname, 1) AS finit, fname
  FROM ${from} WHERE bus_name IS NULL AND lkey IS NOT NULL AND fname IS NOT NULL`;

/**
 * Pairs (NPPES row, LEIE row) of one batch of LEIE rows (`khash % $1 = $2`) that share a block: people whose
 * last-name key (or a part) is equal and whose first names can agree (equal, or one an initial of the other);
 * organisations whose legal or other name's key equals the business name's, or starts with a cut name.
 */
const PAIRS_SQL = `
  CREATE OR REPLACE TABLE oig_pairs AS
  WITH batch AS (SELECT * FROM oig_leie WHERE khash % $1::UBIGINT = $2::UBIGINT),
  person_blocks AS (${leiePersonBlocksSql('batch')}), cut AS (
    SELECT row, oprefix, left(oprefix, ${PREFIX_BLOCK}) AS nblock FROM batch WHERE oprefix IS NOT NULL
  )
  SELECT DISTINCT p.srow, p.npi, l.row
  FROM oig_people p JOIN person_blocks l ON p.bkey = l.bkey AND p.finit = l.finit
  WHERE p.fname = l.fname OR length(p.fname) = 1 OR length(l.fname) = 1
  UNION
  SELECT o.srow, o.npi, l.row FROM oig_orgs o JOIN batch l ON o.okey = l.okey
  UNION
  SELECT o.srow, o.npi, c.row FROM oig_orgs o JOIN cut c
    ON left(o.nname, ${PREFIX_BLOCK}) = c.nblock AND starts_with(o.nname, c.oprefix)`;

/**
 * An upper bound of the pairs {@link PAIRS_SQL} forms over every batch: the NPPES people in each LEIE person's blocks
 * (whatever their first names) and the organisations that share a business key (cut-name prefixes aside: few).
 */
const PAIRS_BOUND_SQL = `
  WITH person_blocks AS (${leiePersonBlocksSql('oig_leie')}),
  people AS (SELECT bkey, finit, count(*) AS n FROM oig_people GROUP BY ALL),
  orgs AS (SELECT okey, count(*) AS n FROM oig_orgs WHERE okey IS NOT NULL GROUP BY ALL)
  SELECT (SELECT coalesce(sum(n), 0) FROM person_blocks JOIN people USING (bkey, finit))
    + (SELECT coalesce(sum(n), 0) FROM oig_leie JOIN orgs USING (okey))`;

/** The evidence of each pair, and whether it is kept. */
const EVIDENCE_SQL = `
  CREATE OR REPLACE TABLE oig_evidence AS
  WITH nppes AS (
    SELECT * FROM oig_nppes WHERE srow IN (SELECT srow FROM oig_pairs)
  ), judged AS (
    SELECT p.npi AS nppes_npi, l.*,
      CASE WHEN l.bus_name IS NULL THEN oig_last_agreement(l.lkey, l.ltoks, nullif(array_to_string(p.ltoks, ''), ''), p.ltoks) END AS e_last,
      CASE WHEN l.bus_name IS NULL THEN oig_name_agreement(l.fname, p.fname) END AS e_first,
      CASE WHEN l.bus_name IS NULL THEN oig_name_agreement(l.mname, p.mname) END AS e_middle,
      l.bus_name IS NULL AND oig_middle_conflict(l.mname, p.mname) AS middle_conflict,
      CASE WHEN l.bus_name IS NOT NULL THEN CASE WHEN l.okey = p.legal THEN 'legal' WHEN l.okey = p.other THEN 'other'
        WHEN starts_with(p.nlegal, l.oprefix) THEN 'legal_prefix' WHEN starts_with(p.nother, l.oprefix) THEN 'other_prefix'
        END END AS e_business,
      oig_place_agreement(l.state, upper(p.state), upper(p.mail_state)) AS e_state,
      oig_place_agreement(l.ncity, oig_norm(p.city), oig_norm(p.mail_city)) AS e_city,
      oig_place_agreement(l.zip, p.postal_code, p.mail_postal) AS e_zip
    FROM oig_pairs pr JOIN nppes p USING (srow) JOIN oig_leie l ON l.row = pr.row
  )
  SELECT *,
    CASE WHEN bus_name IS NULL
      THEN e_last IS NOT NULL AND e_first = 'exact' AND NOT middle_conflict
      ELSE e_business IS NOT NULL END AND (e_city IS NOT NULL OR e_zip IS NOT NULL) AS strong
  FROM judged
  WHERE CASE WHEN bus_name IS NULL
    THEN e_last IS NOT NULL AND (e_first = 'exact'
      OR (e_first = 'initial' AND (e_state IS NOT NULL OR e_city IS NOT NULL OR e_zip IS NOT NULL)))
    ELSE e_business IS NOT NULL END`;

/** Each kept candidate once per NPI (by its key), as the contract's JSON text, with what orders it. */
const WIRE_SELECT = `
  SELECT npi, strong, excl_date, bus_name, last_name, first_name, ckey, to_json({
      'strength': CASE WHEN strong THEN 'strong' ELSE 'weak' END,
      'evidence': {'last_name': e_last, 'first_name': e_first, 'middle_name': e_middle,
        'business_name': e_business, 'state': e_state, 'city': e_city, 'zip': e_zip},
      'leie': {'entity': entity, 'last_name': last_name, 'first_name': first_name, 'middle_name': mid_name,
        'business_name': bus_name, 'general': general, 'specialty': specialty, 'city': city, 'state': state,
        'zip': zip, 'npi': npi_leie, 'exclusion_type': excl_type, 'exclusion_date': exclusion_date}
    })::VARCHAR AS c
  FROM (
    SELECT *, oig_leie_key(entity, last_name, first_name, mid_name, bus_name, general, specialty, state, npi_leie,
      excl_type, exclusion_date) AS ckey
    FROM (
      SELECT * EXCLUDE (npi, nppes_npi), nppes_npi AS npi, npi AS npi_leie,
        CASE WHEN bus_name IS NULL THEN 'individual' ELSE 'organization' END AS entity,
        strftime(excl_date, '%Y-%m-%d') AS exclusion_date
      FROM oig_evidence
    )
  )
  QUALIFY row_number() OVER (PARTITION BY npi, ckey ORDER BY strong DESC) = 1`;

/**
 * The columns of `oig_candidate`: one row per active NPI with candidates; `candidates` the JSON array of the wire's
 * `OigCandidate` objects; `keyed` the change basis's form (etl/changes/basis.ts), the JSON array of
 * `{"key","candidate"}` in the same order, the key the candidate's `oig_candidate_key`.
 */
export const OIG_CANDIDATE_COLUMNS = 'npi VARCHAR, candidates VARCHAR, candidate_count INTEGER, keyed VARCHAR';

const CANDIDATE_ORDER = 'ORDER BY strong DESC, excl_date DESC, bus_name, last_name, first_name, ckey';
/**
 * One row per NPI of one batch (`hash(npi) % $1 = $2`): the JSON arrays of its candidates (strong first, then the
 * latest exclusion, then by name; the key breaks ties), both from one ordered list (one sort, not one per array).
 * An ordered aggregate holds its whole input in memory, so the NPIs are aggregated in batches of about
 * {@link BATCH_CANDIDATES} candidates.
 */
const CANDIDATES_SQL = `
  INSERT INTO oig_candidate
  SELECT npi, '[' || array_to_string(list_transform(l, x -> x.c), ',') || ']', len(l)::INTEGER,
    '[' || array_to_string(list_transform(l, x -> '{"key":"' || x.k || '","candidate":' || x.c || '}'), ',') || ']'
  FROM (
    SELECT npi, list({'k': ckey, 'c': c} ${CANDIDATE_ORDER}) AS l
    FROM oig_wire WHERE hash(npi) % $1::UBIGINT = $2::UBIGINT GROUP BY npi
  )`;

const BATCH_CANDIDATES = 200_000;
/** The working tables (regular tables, so that DuckDB can spill them: national runs hold many candidates). */
const WORK_TABLES = [
  'oig_leie',
  'oig_nppes',
  'oig_people',
  'oig_orgs',
  'oig_pairs',
  'oig_evidence',
  'oig_wire',
] as const;
/**
 * The pairs judged per pass, at most (by {@link PAIRS_BOUND_SQL}): the pairs, their evidence and their JSON are built
 * one batch of LEIE rows at a time (by their key, so that two rows of one key meet in one batch and count once),
 * because where names are common a national run's candidates, wide rows with their JSON, do not fit DuckDB's share
 * of the budget at once; each pass reads the NPPES blocks once, so the fewer passes the better.
 */
const BATCH_PAIRS = 1_000_000;

/**
 * Builds `oig_candidate` from the staged `nppes_stage` and `leie_stage` (after every LEIE file; the reinstatements
 * are applied first when the build has not done it). The working tables are dropped at the end. `phaseDone` hears
 * each phase's time (the build logs them at debug level).
 */
export async function buildOigCandidates(
  connection: DuckDBConnection,
  phaseDone: (phase: string, fields: Record<string, number>) => void = () => {},
): Promise<OigCandidateCounts> {
  let mark = performance.now();
  const done = (phase: string, fields: Record<string, number> = {}) => {
    const now = performance.now();
    phaseDone(phase, { ...fields, elapsed_ms: Math.round(now - mark) });
    mark = now;
  };
  await createOigNameMacros(connection);
  const applied = await queryNumber(
    connection,
    "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'leie_in_force' AND NOT temporary",
  );
  if (applied === 0) await applyLeieReinstatements(connection);
  await connection.run(ELIGIBLE_LEIE_SQL);
  done('leie keyed');
  const latest = await latestNppesRowsSql(connection, 'rowid AS srow, *');
  await runBound(connection, nppesSql(latest), [NPPES_STATUS.rejected, NPPES_STATUS.active]);
  done('nppes normalised');
  for (const sql of NPPES_BLOCKS_SQL) await connection.run(sql);
  done('nppes blocked');
  const leieRows = await queryNumber(connection, 'SELECT count(*) FROM oig_leie');
  const pairsBound = await queryNumber(connection, PAIRS_BOUND_SQL);
  const leieBatches = Math.max(1, Math.min(leieRows, Math.ceil(pairsBound / BATCH_PAIRS)));
  for (let b = 0; b < leieBatches; b += 1) {
    await runBound(connection, PAIRS_SQL, [leieBatches, b]);
    await connection.run(EVIDENCE_SQL);
    await connection.run(`${b === 0 ? 'CREATE OR REPLACE TABLE oig_wire AS' : 'INSERT INTO oig_wire'} ${WIRE_SELECT}`);
  }
  done('pairs judged', { batches: leieBatches, pairs_bound: pairsBound });
  await connection.run(`CREATE OR REPLACE TABLE oig_candidate (${OIG_CANDIDATE_COLUMNS})`);
  const batches = Math.max(
    1,
    Math.ceil((await queryNumber(connection, 'SELECT count(*) FROM oig_wire')) / BATCH_CANDIDATES),
  );
  for (let b = 0; b < batches; b += 1) await runBound(connection, CANDIDATES_SQL, [batches, b]);
  done('candidates aggregated', { batches });
  const [row = {}] = await queryRows(
    connection,
    `SELECT (SELECT count(DISTINCT npi) FROM oig_wire)::BIGINT AS npis, (SELECT count(*) FROM oig_wire)::BIGINT AS candidates,
       (SELECT count(*) FROM oig_wire WHERE strong)::BIGINT AS strong, (SELECT count(*) FROM oig_leie)::BIGINT AS leie`,
  );
  for (const table of WORK_TABLES) await connection.run(`DROP TABLE IF EXISTS ${table}`);
  return {
    npis: Number(row.npis ?? 0),
    candidates: Number(row.candidates ?? 0),
    strong: Number(row.strong ?? 0),
    leie_rows: Number(row.leie ?? 0),
  };
}
