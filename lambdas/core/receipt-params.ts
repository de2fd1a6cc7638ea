/**
 * The `receipt` parameter of the three batch screens, and the shapes that can have a receipt: a receipt screens a
 * list of NPIs, so `/providers` needs its `npi` roster and no filter that would narrow it (the receipt answers
 * every NPI of the page's share of the roster), and `/changes` needs its `npi` roster. Pure functions.
 */
import { RECEIPT_PARAMETER } from '../../data-contracts/receipts';
import { ApiError } from './api-error';
import { parseFormat, type RawQuery } from './params';

/** The operations that can answer a receipt. */
export type ReceiptOperation = 'listNpis' | 'listProviders' | 'listChanges';

/** Filters of `/providers` that narrow its rows: a receipt answers the roster itself, so they are refused with it. */
const ROSTER_NARROWING = [
  'vertical',
  'taxonomy',
  'name',
  'postal_code',
  'entity_type',
  'state',
  'city',
  'business_mode',
  'include',
] as const;

const given = (query: RawQuery, name: string) => query[name] !== undefined && query[name] !== '';

/**
 * True when the request asks for a receipt, or names the parameter with a value that is not `false`: such a request
 * is never answered 304 nor tagged (its value is checked by {@link parseReceiptFlag}).
 */
export function asksForReceipt(query: RawQuery): boolean {
  const raw = query[RECEIPT_PARAMETER];
  return raw !== undefined && raw !== '' && raw !== 'false';
}

/** `receipt`: `true`, or `false` (the default; an empty value is absent); anything else is 400 `invalid_parameter`. */
export function parseReceiptFlag(raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ApiError('invalid_parameter', 'receipt must be true or false.', {
    hint: 'receipt=true answers a signed receipt of the screen; leave it out for the usual answer.',
  });
}

/**
 * 400 `invalid_parameter` when `operation` cannot answer a receipt for this query, with a hint saying what can. A
 * query without a receipt passes, but for `/npi?numbers=`, whose only CSV is a receipt.
 */
export function assertReceiptShape(operation: ReceiptOperation, query: RawQuery, receipt: boolean): void {
  const format = parseFormat(query.format === '' ? undefined : query.format);
  if (operation === 'listNpis') {
    if (!receipt && format === 'csv') {
      throw new ApiError('invalid_parameter', 'format=csv on /npi is the format of a receipt.', {
        hint: 'Add receipt=true for signed receipt lines, or ask /providers?npi=...&format=csv for identity rows.',
      });
    }
    return;
  }
  if (!receipt) return;
  if (!given(query, 'npi')) {
    const example = operation === 'listProviders' ? '/providers?npi=' : '/changes?since=2026-11-01&npi=';
    throw new ApiError('invalid_parameter', 'A receipt screens a list of NPIs: this call has none.', {
      hint: `Give the NPIs in npi (${example}1003633876,1114636115&receipt=true), or use /npi?numbers=...&receipt=true.`,
    });
  }
  if (operation === 'listProviders') {
    const narrowing = ROSTER_NARROWING.filter((name) => given(query, name));
    if (narrowing.length > 0) {
      throw new ApiError(
        'invalid_parameter',
        `A receipt answers every NPI of the roster: ${narrowing.join(', ')} would narrow it.`,
        { hint: 'Keep npi (with limit, offset and format) and receipt=true; drop the other filters.' },
      );
    }
  }
}

/** The refusal of a receipt asked on a route that has none (every route but the three screens). */
export function receiptNotOffered(): ApiError {
  return new ApiError('invalid_parameter', 'This call has no receipt.', {
    hint: 'Receipts are for batch screens: /npi?numbers=, /providers?npi= and /changes?npi=, with receipt=true.',
  });
}
