/**
 * Use case: a signed receipt of a batch screen (`receipt=true` on `/npi?numbers=`, `/providers?npi=`, `/changes?npi=`;
 * data-contracts/receipts.ts). The call runs as it does without a receipt, through its own use case, so that it is
 * checked, refused and metered exactly as the call it documents; the receipt then answers its NPIs from the same
 * pinned snapshot's records:
 * - `/npi?numbers=`: every NPI asked, duplicates and malformed ones included, in the order asked;
 * - `/providers?npi=`: the page's share of the roster (its NPIs from `offset`, at most `limit`, in the order asked),
 *   which is what the page is charged for ({@link rosterPageCost});
 * - `/changes?npi=`: every NPI of the roster, and the page (`offset` and the next page's).
 *
 * Order: the parameters (400), then the key is loaded (a key that cannot be loaded is a 500 before any charge), then
 * the call (its own checks and charge), then the receipt.
 */
import { randomUUID } from 'node:crypto';
import { npiRecordText } from '../../data-contracts/npi-record';
import { RECEIPT_VERSION, type ReceiptCandidate } from '../../data-contracts/receipts';
import type { NpiDeactivated, NpiRecord, Receipt, ReceiptAnswer, ReceiptPublicKey } from '../../data-contracts/types';
import { toKeyId } from '../access/api-key';
import type { ProviderData } from '../query/types';
import { admit, type Credentials } from './authenticate';
import { parseChangesRequest } from './changes-params';
import { listChanges } from './list-changes';
import { listProviders } from './list-providers';
import { answersOf, lookupNpis, type NpiBatchAnswer } from './lookup-npi';
import { parseNpiList } from './npi-params';
import { type Format, parseFormat, parseListRequest, type RawQuery } from './params';
import type { CoreDeps, RateLimitState, ReceiptKey } from './ports';
import { assertReceiptShape, type ReceiptOperation } from './receipt-params';

/** The input of {@link issueReceipt}. */
export interface IssueReceiptInput {
  operation: ReceiptOperation;
  credentials: Credentials;
  /** The first value of each query parameter (what the use cases read). */
  query: RawQuery;
  /** Every value of the change feed's repeated `kind`. */
  kinds: readonly string[];
  /** What the receipt says was asked: the path, and the query without `key` and `receipt`. */
  request: Receipt['request'];
}

/** A receipt and the key to sign it with, in the format asked. */
export interface ReceiptResult {
  format: Format;
  receipt: Receipt;
  key: ReceiptKey;
  rateLimit?: RateLimitState;
}

/** A record as the receipt reads it: the wire record, with the possible matches of an active NPI when it has any. */
type ScreenedRecord = (NpiRecord | NpiDeactivated) & { oig_candidates?: ReceiptCandidate[] };

/** The receipt's answer for one NPI of a batch: its record is parsed here, and only here. */
export function receiptAnswerOf(entry: NpiBatchAnswer): ReceiptAnswer {
  if (!('record' in entry)) {
    return { npi: entry.npi, status: entry.status, outcome: 'not_screened', oig: null, candidates: [] };
  }
  const record = JSON.parse(npiRecordText(entry.record)) as ScreenedRecord;
  // A deactivated record carries no candidates (NPPES blanks its names: nothing to compare).
  const candidates = record.status === 'active' ? (record.oig_candidates ?? []) : [];
  const outcome = 'excluded' in record.oig ? 'match' : candidates.length > 0 ? 'candidates' : 'none';
  return { npi: entry.npi, status: entry.status, outcome, oig: record.oig, candidates };
}

/** Checks the call's own parameters first, so that a bad request is a 400 whether or not the key can be loaded. */
function checkParameters(input: IssueReceiptInput): void {
  assertReceiptShape(input.operation, input.query, true);
  parseFormat(input.query.format === '' ? undefined : input.query.format);
  if (input.operation === 'listNpis') parseNpiList(input.query.numbers);
  else if (input.operation === 'listProviders') parseListRequest(input.query);
  else parseChangesRequest(input.query, input.kinds);
}

/**
 * @example
 * const { receipt, key } = await issueReceipt({ operation: 'listNpis', credentials, query: { numbers: '1003633876', receipt: 'true' }, kinds: [], request }, deps);
 */
export async function issueReceipt(input: IssueReceiptInput, deps: CoreDeps): Promise<ReceiptResult> {
  const principal = await admit(input.credentials, deps);
  checkParameters(input);
  const format = parseFormat(input.query.format === '' ? undefined : input.query.format);
  const key = await deps.receipts.current();
  return deps.snapshots.withSnapshot(async (data) => {
    // The call and the receipt read the same snapshot.
    const pinned: CoreDeps = { ...deps, snapshots: { withSnapshot: (work) => work(data) } };
    const { credentials, query } = input;
    let answers: ReceiptAnswer[];
    let rateLimit: RateLimitState | undefined;
    let page: Receipt['page'] | undefined;
    if (input.operation === 'listNpis') {
      const result = await lookupNpis({ credentials, numbers: query.numbers }, pinned);
      rateLimit = result.rateLimit;
      answers = result.data.map(receiptAnswerOf);
    } else if (input.operation === 'listProviders') {
      const result = await listProviders({ credentials, query }, pinned);
      rateLimit = result.rateLimit;
      const { offset, limit } = result.pagination;
      const roster = result.filters.npi ?? [];
      answers = await answersFor(roster.slice(offset, offset + limit), data);
    } else {
      const result = await listChanges({ credentials, query, kinds: input.kinds }, pinned);
      rateLimit = result.rateLimit;
      answers = await answersFor(result.filters.npi ?? [], data);
      const { offset, returned, total } = result.pagination;
      page = { cursor: String(offset), next_cursor: offset + returned < total ? String(offset + returned) : null };
    }
    const receipt: Receipt = {
      version: RECEIPT_VERSION,
      receipt_id: randomUUID(),
      issued_at: deps.clock().toISOString(),
      request: input.request,
      api_key_id: toKeyId(principal.keyHash),
      plan: principal.plan,
      snapshot: { id: data.snapshotId, as_of: data.asOf },
      leie_files: data.leieFiles.map((f) => ({
        file: f.file,
        kind: f.kind,
        release: f.release,
        sha256: f.sha256,
        rows: f.rows,
      })),
      ...(page ? { page } : {}),
      answers,
    };
    return { format, receipt, key, ...(rateLimit ? { rateLimit } : {}) };
  });
}

async function answersFor(npis: readonly string[], data: ProviderData): Promise<ReceiptAnswer[]> {
  return (await answersOf(npis, data)).map(receiptAnswerOf);
}

/** The public key of the receipts (`GET /receipts/public-key`): public, no key. */
export async function getReceiptPublicKey(deps: Pick<CoreDeps, 'receipts'>): Promise<ReceiptPublicKey> {
  return (await deps.receipts.current()).publicKey;
}
