/**
 * Use cases: one NPI (`GET /npi/{npi}`) and a batch (`GET /npi?numbers=`), answered from the snapshot's NPI lookup
 * buckets. Every plan may call them (identity data is not vertical data). Like identity rows, a record carries the
 * free `oig` and the paid fields as locked placeholders on every plan.
 *
 * Order of checks: key (401), a quota known to be used up (429), parameters (400), then for one NPI the lookup (404)
 * and the charge (429); for a batch the charge (429) and then the lookup. Metering: a single lookup counts one call
 * when it serves data (200 or 410); a batch counts one call per NPI asked (as `/providers?npi=` does), in ONE
 * conditional update made BEFORE the lookup, refused whole (429, nothing counted, no bucket read) when the month has
 * fewer calls left, and given back if the lookup then fails.
 */
import type { Plan, Tier } from '../../data-contracts/constants';
import type { NpiRecordBytes } from '../../data-contracts/npi-record';
import type { NpiBatchEntry, Usage } from '../../data-contracts/types';
import type { ProviderData } from '../query/types';
import { ApiError } from './api-error';
import { admit, type Credentials } from './authenticate';
import { chargeCall, chargeUpFront } from './charge-call';
import { freeTierNotice } from './notices';
import { npiProblem, parseNpi, parseNpiList } from './npi-params';
import type { CoreDeps, Principal, RateLimitState } from './ports';

interface Envelope {
  tier: Tier;
  plan: Plan;
  usage?: Usage;
  notice?: string;
  rateLimit?: RateLimitState;
}

/**
 * The result of {@link getNpi}: `active` answers 200, `deactivated` 410; `record` is the `NpiRecord` or
 * `NpiDeactivated` as JSON bytes (data-contracts/npi-record.ts: copied from the bucket, never parsed).
 */
export type GetNpiResult = Envelope & { status: 'active' | 'deactivated'; record: NpiRecordBytes };

/** One asked NPI of a batch: its record as JSON bytes, or why there is none. */
export type NpiBatchAnswer =
  | { npi: string; status: 'active' | 'deactivated'; record: NpiRecordBytes }
  | { npi: string; status: 'invalid' | 'not_found'; reason: string };

export interface NpiBatchResult extends Envelope {
  data: NpiBatchAnswer[];
}

/**
 * The batch's `data` array (`NpiBatchEntry` items) as JSON byte runs, to be concatenated once: each record's bytes
 * as they came from the bucket.
 */
export function npiBatchParts(answers: readonly NpiBatchAnswer[]): Buffer[] {
  const parts: Buffer[] = [];
  let text = '[';
  for (const [i, a] of answers.entries()) {
    if (i > 0) text += ',';
    if ('record' in a) {
      parts.push(Buffer.from(`${text}{"npi":${JSON.stringify(a.npi)},"status":"${a.status}","record":`, 'utf8'));
      parts.push(a.record.head, a.record.tail);
      text = '}';
    } else {
      text += JSON.stringify({ npi: a.npi, status: a.status, reason: a.reason } satisfies NpiBatchEntry);
    }
  }
  parts.push(Buffer.from(`${text}]`, 'utf8'));
  return parts;
}

function envelopeOf(principal: Principal): Pick<Envelope, 'tier' | 'plan' | 'notice'> {
  return {
    tier: principal.tier,
    plan: principal.plan,
    ...(principal.tier === 'free' ? { notice: freeTierNotice() } : {}),
  };
}

/** One NPI. Throws 400 `invalid_npi`, 404 `not_found`, 429 `quota_exceeded`. */
export async function getNpi(input: { credentials: Credentials; npi: string }, deps: CoreDeps): Promise<GetNpiResult> {
  const principal = await admit(input.credentials, deps);
  const npi = parseNpi(input.npi);
  return deps.snapshots.withSnapshot(async (data) => {
    const [record] = await data.findNpis([npi]);
    if (record === null || record === undefined) {
      throw new ApiError('not_found', 'No NPPES record has this NPI.', {
        hint: 'The NPI is well formed but was never issued, or is not in this snapshot of the registry.',
      });
    }
    const charge = await chargeCall(principal, deps);
    return { ...envelopeOf(principal), ...charge, status: record.status, record };
  });
}

/** One answer per asked NPI, in the order asked: the malformed ones are not looked up (receipts use it too). */
export async function answersOf(asked: readonly string[], data: ProviderData): Promise<NpiBatchAnswer[]> {
  const problems = asked.map(npiProblem);
  const records = await data.findNpis(asked.filter((_, i) => problems[i] === null));
  let next = 0;
  return asked.map((npi, i): NpiBatchAnswer => {
    const problem = problems[i];
    if (problem !== null && problem !== undefined) return { npi, status: 'invalid', reason: problem };
    const record = records[next++] ?? null;
    if (record === null) return { npi, status: 'not_found', reason: 'No NPPES record has this NPI.' };
    return { npi, status: record.status, record };
  });
}

/** Up to 100 NPIs, one entry each in the order asked. Throws 400 `invalid_parameter`, 429 `quota_exceeded`. */
export async function lookupNpis(
  input: { credentials: Credentials; numbers: string | undefined },
  deps: CoreDeps,
): Promise<NpiBatchResult> {
  const principal = await admit(input.credentials, deps);
  const asked = parseNpiList(input.numbers);
  // The batch's cost is known before the lookup: charged first (429 without any bucket read), given back if it fails.
  const { charge, value: entries } = await chargeUpFront(principal, deps, asked.length, () =>
    deps.snapshots.withSnapshot((data) => answersOf(asked, data)),
  );
  return { ...envelopeOf(principal), ...charge, data: entries };
}
