/**
 * Signed receipts of batch screens: `receipt=true` on `GET /npi?numbers=`, `GET /providers?npi=` and each page of
 * `GET /changes?npi=` answers a {@link ReceiptBody} (JSON) or receipt lines (CSV) instead of the usual body, signed
 * with the deployment's Ed25519 key, whose public half `GET /receipts/public-key` serves. The shapes are the OpenAPI
 * document's (openapi-receipts.ts); this file holds what the document cannot say: the CSV columns and how a line is
 * signed.
 *
 * JSON: the signature is over the UTF-8 bytes of the RFC 8785 canonical JSON of `receipt` (jcs.ts).
 * CSV: every data line is signed alone, over its UTF-8 bytes up to (not including) its last `,`; the last cell is the
 * base64 signature, never quoted.
 */
import type { Receipt, ReceiptAnswer } from './types';

/** The receipt format's version (`receipt.version`). */
export const RECEIPT_VERSION = 1 as const;
/** The only signature algorithm. */
export const RECEIPT_ALGORITHM = 'Ed25519' as const;
/** The query parameter that asks for a receipt. */
export const RECEIPT_PARAMETER = 'receipt' as const;
/** The parameters a receipt's `request.query` never echoes: the key, and the request for a receipt itself. */
export const RECEIPT_QUERY_OMITS = ['key', RECEIPT_PARAMETER] as const;

/** What each NPI asked is in a receipt: its NPPES status (as the batch lookup says it) and the screen's outcome. */
export const RECEIPT_STATUSES = ['active', 'deactivated', 'not_found', 'invalid'] as const;
/**
 * `match`: the NPI matched an LEIE exclusion (its candidates are still listed); `candidates`: no NPI match, and at
 * least one possible match by name; `none`: neither (never a clearance); `not_screened`: no record to screen.
 */
export const RECEIPT_OUTCOMES = ['match', 'candidates', 'none', 'not_screened'] as const;

/** The columns of a CSV receipt, in order; `signature` is always last. */
export const RECEIPT_CSV_COLUMNS = [
  'receipt_id',
  'issued_at',
  'snapshot_id',
  'snapshot_as_of',
  'api_key_id',
  'leie_files',
  'row',
  'rows',
  'npi',
  'status',
  'outcome',
  'oig_type',
  'oig_date',
  'candidate_strength',
  'candidate_name',
  'candidate_general',
  'candidate_specialty',
  'candidate_city',
  'candidate_state',
  'candidate_exclusion_type',
  'candidate_exclusion_date',
  'candidate_evidence',
  'key_id',
  'signature',
] as const;
export type ReceiptCsvColumn = (typeof RECEIPT_CSV_COLUMNS)[number];

/** One candidate of an answer (`OigCandidate`). */
export type ReceiptCandidate = ReceiptAnswer['candidates'][number];

/**
 * A receipt's LEIE files in one cell: `file@release#sha256`, joined by `;`.
 * @example leieFilesCell([{ file: 'UPDATED.csv', release: '2026-10-01T00:00:00Z', sha256: 'ab…', … }]) === 'UPDATED.csv@2026-10-01T00:00:00Z#ab…'
 */
export function leieFilesCell(files: Receipt['leie_files']): string {
  return files.map((f) => `${f.file}@${f.release}#${f.sha256}`).join(';');
}

/**
 * A candidate's evidence in one cell: the members that agreed, `name=value` joined by `;`, in the evidence's
 * member order.
 * @example evidenceCell({ last_name: 'exact', first_name: null, state: 'practice', … }) === 'last_name=exact;state=practice'
 */
export function evidenceCell(evidence: ReceiptCandidate['evidence']): string {
  return Object.entries(evidence)
    .filter(([, agreed]) => agreed !== null)
    .map(([member, agreed]) => `${member}=${agreed}`)
    .join(';');
}

/** A candidate's name in one cell: the business name of an organisation, `LAST, FIRST MIDDLE` of an individual. */
export function candidateNameCell(leie: ReceiptCandidate['leie']): string {
  if (leie.entity === 'organization') return leie.business_name ?? '';
  const given = [leie.first_name, leie.middle_name].filter((p): p is string => p !== null && p !== '').join(' ');
  return [leie.last_name ?? '', given].filter((p) => p !== '').join(', ');
}
