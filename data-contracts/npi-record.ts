/**
 * The NPI lookup's wire record (`NpiRecord`, `NpiDeactivated` of the OpenAPI document) and the form the NPI lookup
 * buckets store it in (platform/npi-index/format.ts, version 2): the record's JSON **head**, the complete record
 * without the members that are the same on every record, which the API appends as constant text. A lookup then
 * copies the stored bytes into its answer: no `JSON.parse` of the stored line, no record object and no
 * `JSON.stringify` of it (those were half of a 100-NPI batch's CPU, profiled at 1,000,000 NPIs).
 *
 * The head is the record's JSON object, members in wire order from `npi` through `source`, then `oig` only when the
 * NPI matched an LEIE exclusion or (active NPIs) has OIG possible matches, then `oig_candidates` only when it has
 * some:
 * ```
 * {"npi":"1234567893","status":"active","entity_type":…,"last_update_date":…,"layer":"identity","source":"NPPES"}
 * {"npi":"1234567893","status":"deactivated","deactivation_date":…,"layer":"identity","source":"NPPES","oig":{…}}
 * {"npi":"1234567893","status":"active",…,"source":"NPPES","oig":{"npi_match":"none",…},"oig_candidates":[…]}
 * ```
 * Completing it ({@link completeNpiRecord}) drops its closing brace and appends the "no match" `oig` when it has
 * none, `"oig_candidates":[]` when an active head has none, and the four locked placeholders when the NPI is active.
 * Which of these a head lacks is told by its last two bytes (`"}` after `source`, `}}` after an `oig` object, `]}`
 * after the candidates), never by parsing it. As bytes, so that an answer is the stored bytes
 * and constant bytes concatenated once (a batch built as one string spent a fifth of its CPU flattening it and
 * encoding it back to UTF-8). The ETL writes heads with DuckDB's `to_json`
 * (etl/sources/npi-lookup.ts); {@link npiRecordHead} is the same head from a lookup line (tests hold the two equal
 * through the API, and version 1 buckets, which hold lookup lines, are answered through it).
 */
import { IDENTITY_SOURCE } from './constants';
import type { NpiActiveLine, NpiLookupLine } from './layout';
import { LOCKED_FIELD, LOCKED_MEMBERS_JSON, NO_MATCH_OIG_MEMBER_JSON, oigFromRow } from './rows';
import type { NpiDeactivated, NpiRecord } from './types';

/**
 * A record as the lookups answer it: its status, and its complete JSON as two byte runs, the stored head without its
 * closing brace (a view of the bytes read, not a copy) and the constant tail that completes it.
 */
export interface NpiRecordBytes {
  status: 'active' | 'deactivated';
  head: Buffer;
  tail: Buffer;
}

/** The end of a head without `oig`. */
const SOURCE_END = Buffer.from(`"source":${JSON.stringify(IDENTITY_SOURCE)}}`);
/** The member an active head without candidates lacks. */
const NO_CANDIDATES_MEMBER_JSON = ',"oig_candidates":[]';
/** The tails, by status and by what the head ends with: `source`, its `oig`, or its `oig_candidates`. */
const TAILS = {
  active: {
    withCandidates: Buffer.from(`${LOCKED_MEMBERS_JSON}}`),
    withOig: Buffer.from(`${NO_CANDIDATES_MEMBER_JSON}${LOCKED_MEMBERS_JSON}}`),
    noOig: Buffer.from(`${NO_MATCH_OIG_MEMBER_JSON}${NO_CANDIDATES_MEMBER_JSON}${LOCKED_MEMBERS_JSON}}`),
  },
  deactivated: { withOig: Buffer.from('}'), noOig: Buffer.from(`${NO_MATCH_OIG_MEMBER_JSON}}`) },
} as const;
const HEAD_START = Buffer.from('{"npi":"');
/** `{"npi":"` + 10 digits + `","status":"`: where the status starts in every head. */
const STATUS_AT = 30;
const STATUS_ACTIVE = Buffer.from('active"');
const STATUS_DEACTIVATED = Buffer.from('deactivated"');
const CLOSE = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]

/** Does `bytes` hold `part` at `at`? */
function holdsAt(bytes: Buffer, at: number, part: Buffer): boolean {
  return at >= 0 && at + part.length <= bytes.length && bytes.compare(part, 0, part.length, at, at + part.length) === 0;
}

/** The wire record of a lookup line, field by field. */
export function presentNpiLine(line: NpiLookupLine): NpiRecord | NpiDeactivated {
  const oig = oigFromRow(line);
  if (line.status === 'deactivated') {
    return {
      npi: line.npi,
      status: 'deactivated',
      deactivation_date: line.deactivation_date,
      layer: 'identity',
      source: IDENTITY_SOURCE,
      oig,
    };
  }
  return {
    npi: line.npi,
    status: 'active',
    entity_type: line.entity_type,
    name: line.name,
    organization_name: line.organization_name,
    last_name: line.last_name,
    first_name: line.first_name,
    taxonomies: line.taxonomies.map((t) => ({
      code: t.code,
      display: t.display,
      primary: t.primary,
      license_number: t.license_number,
      license_state: t.license_state,
    })),
    city: line.city,
    state: line.state,
    postal_code: line.postal_code,
    enumeration_date: line.enumeration_date,
    last_update_date: line.last_update_date,
    layer: 'identity',
    source: IDENTITY_SOURCE,
    oig,
    oig_candidates: line.oig_candidates ?? [],
    certification: { ...LOCKED_FIELD },
    license: { ...LOCKED_FIELD },
    fda: { ...LOCKED_FIELD },
    price: { ...LOCKED_FIELD },
  };
}

/** The stored head of a lookup line (what the ETL writes for it). */
export function npiRecordHead(line: NpiLookupLine): string {
  const record = presentNpiLine(line);
  const candidates = record.status === 'active' ? record.oig_candidates : [];
  const head: Record<string, unknown> = { ...record };
  for (const tail of ['oig', 'oig_candidates', 'certification', 'license', 'fda', 'price']) delete head[tail];
  if ('excluded' in record.oig || candidates.length > 0) head.oig = record.oig;
  if (candidates.length > 0) head.oig_candidates = candidates;
  return JSON.stringify(head);
}

/**
 * The complete record of a stored head (its UTF-8 bytes, kept as a view). Throws on bytes that are not a head (a
 * damaged bucket): its status must be where every head has it, and it must end with `source`, an `oig` object or
 * (active) the `oig_candidates` array.
 * @example npiRecordText(completeNpiRecord(Buffer.from(npiRecordHead(line)))) === JSON.stringify(presentNpiLine(line))
 */
export function completeNpiRecord(head: Buffer): NpiRecordBytes {
  const status = holdsAt(head, STATUS_AT, STATUS_ACTIVE)
    ? 'active'
    : holdsAt(head, STATUS_AT, STATUS_DEACTIVATED)
      ? 'deactivated'
      : null;
  const end = head.length - 1;
  if (status === null || !holdsAt(head, 0, HEAD_START) || head[end] !== CLOSE) {
    throw new Error(`not an NPI record head: ${head.toString('utf8', 0, 48)}`);
  }
  const hasOig = !holdsAt(head, head.length - SOURCE_END.length, SOURCE_END);
  const last = head[end - 1];
  if (status === 'active' && last === CLOSE_ARRAY) {
    return { status, head: head.subarray(0, end), tail: TAILS.active.withCandidates };
  }
  if (hasOig && last !== CLOSE) throw new Error(`not an NPI record head: …${head.toString('utf8', end - 47)}`);
  return { status, head: head.subarray(0, end), tail: TAILS[status][hasOig ? 'withOig' : 'noOig'] };
}

/** The complete JSON text of a record. */
export function npiRecordText(record: NpiRecordBytes): string {
  return Buffer.concat([record.head, record.tail]).toString('utf8');
}

/** The complete record of a lookup line (a version 1 bucket's record). */
export function npiRecordOf(line: NpiLookupLine): NpiRecordBytes {
  return completeNpiRecord(Buffer.from(npiRecordHead(line), 'utf8'));
}

/** The lookup line an active record describes (the identity search's `npi` filter reads records as lines). */
export function npiActiveLineOf(record: NpiRecord): NpiActiveLine {
  const oig = record.oig;
  const excluded = 'excluded' in oig;
  return {
    npi: record.npi,
    status: 'active',
    entity_type: record.entity_type,
    name: record.name,
    organization_name: record.organization_name ?? null,
    last_name: record.last_name ?? null,
    first_name: record.first_name ?? null,
    taxonomies: record.taxonomies.map((t) => ({
      code: t.code,
      display: t.display ?? null,
      primary: t.primary,
      license_number: t.license_number ?? null,
      license_state: t.license_state ?? null,
    })),
    city: record.city ?? null,
    state: record.state ?? null,
    postal_code: record.postal_code ?? null,
    enumeration_date: record.enumeration_date ?? null,
    last_update_date: record.last_update_date ?? null,
    oig_excluded: excluded,
    oig_type: excluded ? (oig.type ?? null) : null,
    oig_date: excluded ? (oig.date ?? null) : null,
    oig_checked_at: excluded ? (oig.checked_at ?? null) : null,
    ...(record.oig_candidates.length > 0 ? { oig_candidates: record.oig_candidates } : {}),
  };
}
