/**
 * The presenter of a receipt (lambdas/core/issue-receipt.ts): the signed JSON body, or the signed CSV lines
 * (data-contracts/receipts.ts). A receipt is never stored by any cache and carries no ETag (the guard sends none).
 */

import { type CsvCell, csvField } from '../../data-contracts/csv';
import { canonicalJson } from '../../data-contracts/jcs';
import {
  candidateNameCell,
  evidenceCell,
  leieFilesCell,
  RECEIPT_ALGORITHM,
  RECEIPT_CSV_COLUMNS,
  type ReceiptCsvColumn,
} from '../../data-contracts/receipts';
import type { Receipt, ReceiptAnswer } from '../../data-contracts/types';
import type { ReceiptResult } from '../core/issue-receipt';
import type { ReceiptKey } from '../core/ports';
import { csvResponse, jsonResponse, NO_STORE, rateLimitHeaders } from './responses';

/**
 * The JSON body: `{"receipt":…,"signature":…}`, the receipt written in its canonical form, so that the bytes on the
 * wire are the bytes signed.
 */
export function receiptJsonBytes(receipt: Receipt, key: ReceiptKey): Buffer {
  const canonical = canonicalJson(receipt);
  const signature = { algorithm: RECEIPT_ALGORITHM, key_id: key.keyId, value: key.sign(Buffer.from(canonical)) };
  return Buffer.from(`{"receipt":${canonical},"signature":${JSON.stringify(signature)}}`, 'utf8');
}

type Cells = Partial<Record<ReceiptCsvColumn, CsvCell>>;

/** The lines of one answer, before `row`, `rows`, `key_id` and `signature`: one per candidate, or one. */
function answerCells(answer: ReceiptAnswer): Cells[] {
  const oig = answer.oig !== null && 'excluded' in answer.oig ? answer.oig : null;
  const base: Cells = {
    npi: answer.npi,
    status: answer.status,
    outcome: answer.outcome,
    oig_type: oig?.type ?? null,
    oig_date: oig?.date ?? null,
  };
  if (answer.candidates.length === 0) return [base];
  return answer.candidates.map((c) => ({
    ...base,
    candidate_strength: c.strength,
    candidate_name: candidateNameCell(c.leie),
    candidate_general: c.leie.general,
    candidate_specialty: c.leie.specialty,
    candidate_city: c.leie.city,
    candidate_state: c.leie.state,
    candidate_exclusion_type: c.leie.exclusion_type,
    candidate_exclusion_date: c.leie.exclusion_date,
    candidate_evidence: evidenceCell(c.evidence),
  }));
}

/**
 * The CSV text: the header, then one line per (NPI, candidate), each signed alone over its UTF-8 bytes before its
 * last comma. The signature cell is base64, which needs no quoting.
 */
export function receiptCsvText(receipt: Receipt, key: ReceiptKey): string {
  const shared: Cells = {
    receipt_id: receipt.receipt_id,
    issued_at: receipt.issued_at,
    snapshot_id: receipt.snapshot.id,
    snapshot_as_of: receipt.snapshot.as_of,
    api_key_id: receipt.api_key_id,
    leie_files: leieFilesCell(receipt.leie_files),
  };
  const lines = receipt.answers.flatMap(answerCells);
  const signedColumns = RECEIPT_CSV_COLUMNS.slice(0, -1);
  const out = [RECEIPT_CSV_COLUMNS.join(',')];
  for (const [i, cells] of lines.entries()) {
    const line: Cells = { ...shared, ...cells, row: i + 1, rows: lines.length, key_id: key.keyId };
    const signed = signedColumns.map((column) => csvField(line[column])).join(',');
    out.push(`${signed},${key.sign(Buffer.from(signed, 'utf8'))}`);
  }
  return `${out.join('\r\n')}\r\n`;
}

/** The answer: 200, JSON or a CSV attachment, never stored, with the call's rate-limit headers. */
export function presentReceipt(result: ReceiptResult): Response {
  const options = {
    cacheControl: NO_STORE,
    ...(result.rateLimit ? { headers: rateLimitHeaders(result.rateLimit) } : {}),
  };
  if (result.format === 'csv') {
    return csvResponse(receiptCsvText(result.receipt, result.key), {
      filename: `receipt-${result.receipt.receipt_id}.csv`,
      ...options,
    });
  }
  return jsonResponse(200, receiptJsonBytes(result.receipt, result.key), options);
}
