/**
 * The NPI lookup records (`npi` objects of data-contracts/layout.ts) from the staged NPPES rows: one record head
 * (data-contracts/npi-record.ts) per NPI whose latest non-rejected row is active (its full identity record) or
 * deactivated (its deactivation date), with the OIG match of the identity rows (`oig_match`, the same LEIE rule) and,
 * for an active NPI, its OIG possible matches (`oig_candidate`: the wire array as JSON text, copied into the head as
 * it is). Rejected NPIs get no line: a lookup answers 404 for them, as for an NPI never issued.
 *
 * Taxonomies: every non-empty slot in slot order, with the NUCC display name, `primary` when the slot is the
 * record's primary slot (the first slot with switch `Y`, as in the identity layer), and the slot's license number
 * and state. A code held in two slots (one license per state, say) is listed twice: the slots are the record.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { IDENTITY_SOURCE, OIG_NO_MATCH_NOTE, OIG_SOURCE } from '../../data-contracts/constants';
import { npiBucketDigits } from '../../data-contracts/layout';
import { queryNumber, runBound } from '../../platform/duckdb/statements';
import { TAXONOMY_SLOTS } from './nppes-columns';
import { latestNppesRowsSql, NPPES_STATUS, NUCC_MAPS_SQL, slotListSql } from './nppes-staged';

/**
 * Creates `npi_lookup (bucket, npi, line)`: the line is the NPI's record head (data-contracts/npi-record.ts), `npi`
 * first; the bucket the NPI's prefix of the width its count calls for. Returns the number of NPIs (active and
 * deactivated).
 */
export async function buildNpiLookupTable(connection: DuckDBConnection): Promise<number> {
  const digits = npiBucketDigits(
    await queryNumber(connection, 'SELECT count(DISTINCT npi) FROM nppes_stage WHERE status < $1', [
      NPPES_STATUS.rejected,
    ]),
  );
  // The head of data-contracts/npi-record.ts: the wire record from `npi` through `source`, then `oig` only when the
  // NPI matched an LEIE exclusion or has candidates, then `oig_candidates` only when it has some (the API appends
  // what a head lacks: the "no match" oig, the empty candidates and the locked placeholders).
  const active = `npi := s.npi, status := 'active',
        entity_type := CASE s.entity_type WHEN '1' THEN 'individual' ELSE 'organization' END,
        name := s.name,
        organization_name := CASE s.entity_type WHEN '2' THEN s.org_name END,
        last_name := CASE s.entity_type WHEN '1' THEN s.last_name END,
        first_name := CASE s.entity_type WHEN '1' THEN s.first_name END,
        taxonomies := list_filter(list_transform(range(1, ${TAXONOMY_SLOTS + 1}), i -> struct_pack(
          code := s.codes[i],
          display := map_extract_value(nucc.display_of, s.codes[i]),
          "primary" := coalesce(s.primary_slot = i, false),
          license_number := s.lics[i],
          license_state := s.lstates[i])), t -> t.code IS NOT NULL),
        city := s.city, state := s.state, postal_code := s.postal_code,
        enumeration_date := s.enumerated_on, last_update_date := s.checked_at`;
  const deactivated = `npi := s.npi, status := 'deactivated', deactivation_date := s.deactivated_on`;
  const provenance = `layer := 'identity', source := $4::VARCHAR`;
  const oigMatch = `struct_pack(excluded := true, type := nullif(o.oig_type, ''), date := nullif(o.oig_date, ''),
        source := $5::VARCHAR, checked_at := nullif(o.oig_checked_at, ''))`;
  const oig = `oig := ${oigMatch}`;
  const head = (members: string) =>
    `CASE WHEN o.npi IS NULL THEN to_json(struct_pack(${members}, ${provenance}))
          ELSE to_json(struct_pack(${members}, ${provenance}, ${oig})) END`;
  // An active NPI with candidates: its `oig` either way (as JSON, the two shapes being different structs), then the
  // candidates' JSON text (already the wire's JSON) spliced in as the last member, not parsed again.
  const oigJson = `CASE WHEN o.npi IS NULL THEN to_json(struct_pack(npi_match := 'none', note := $6::VARCHAR))
        ELSE to_json(${oigMatch}) END`;
  const withOig = `to_json(struct_pack(${active}, ${provenance}, oig := ${oigJson}))::VARCHAR`;
  const activeHead = `CASE WHEN k.npi IS NULL THEN ${head(active)}
        ELSE left(${withOig}, -1) || ',"oig_candidates":' || k.candidates || '}' END`;
  // The latest non-rejected row per NPI decides (file listed last, then the later row), as for the identity layer.
  const latest = await latestNppesRowsSql(connection);
  await runBound(
    connection,
    `
    CREATE OR REPLACE TABLE npi_lookup AS
    WITH nucc AS (${NUCC_MAPS_SQL}), latest AS (${latest}), slots AS (
      SELECT l.*, ${slotListSql('c')} AS codes, ${slotListSql('l')} AS lics, ${slotListSql('ls')} AS lstates FROM latest l
    )
    SELECT left(s.npi, $3) AS bucket, s.npi,
      (CASE WHEN s.status = $2 THEN ${activeHead} ELSE ${head(deactivated)} END)::VARCHAR AS line
    FROM slots s CROSS JOIN nucc LEFT JOIN oig_match o ON o.npi = s.npi
      LEFT JOIN oig_candidate k ON k.npi = s.npi AND k.candidate_count > 0`,
    [NPPES_STATUS.rejected, NPPES_STATUS.active, digits, IDENTITY_SOURCE, OIG_SOURCE, OIG_NO_MATCH_NOTE],
  );
  return queryNumber(connection, 'SELECT count(*) FROM npi_lookup');
}
