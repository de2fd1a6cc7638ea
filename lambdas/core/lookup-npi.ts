/**
 * Use cases: one NPI (`GET /npi/{npi}`) and a batch (`GET /npi?numbers=`), answered from the snapshot's NPI lookup
 * buckets. Every plan may call them (identity data is not vertical data). Like identity rows, a record carries the
 * free `oig` and the paid fields as locked placeholders on every plan.
 *
 * Order of checks: key (401), parameters (400), lookup (404), quota (429). Metering: a single lookup counts one
 * call when it serves data (200 or 410); a batch counts one call per NPI asked, in ONE conditional update, and is
 * refused whole (429, nothing counted) when the month has fewer calls left.
 */
import type { Plan, Tier } from '../../data-contracts/constants';
import { IDENTITY_SOURCE } from '../../data-contracts/constants';
import type { NpiLookupLine } from '../../data-contracts/layout';
import { LOCKED_FIELD, oigFromRow } from '../../data-contracts/rows';
import type { NpiBatchEntry, NpiDeactivated, NpiRecord, Usage } from '../../data-contracts/types';
import type { ProviderData } from '../query/types';
import { ApiError } from './api-error';
import { authenticate, type Credentials } from './authenticate';
import { chargeCall } from './charge-call';
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

/** The result of {@link getNpi}: `active` answers 200, `deactivated` 410. */
export type GetNpiResult = Envelope &
  ({ status: 'active'; data: NpiRecord } | { status: 'deactivated'; data: NpiDeactivated });

export interface NpiBatchResult extends Envelope {
  data: NpiBatchEntry[];
}

/** A lookup line as the wire's record, field by field. */
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
    certification: { ...LOCKED_FIELD },
    license: { ...LOCKED_FIELD },
    fda: { ...LOCKED_FIELD },
    price: { ...LOCKED_FIELD },
  };
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
  const principal = await authenticate(input.credentials, deps);
  const npi = parseNpi(input.npi);
  return deps.snapshots.withSnapshot(async (data) => {
    const line = await data.findNpi(npi);
    if (line === null) {
      throw new ApiError('not_found', 'No NPPES record has this NPI.', {
        hint: 'The NPI is well formed but was never issued, or is not in this snapshot of the registry.',
      });
    }
    const charge = await chargeCall(principal, deps);
    const record = presentNpiLine(line);
    const envelope = { ...envelopeOf(principal), ...charge };
    return record.status === 'active'
      ? { ...envelope, status: 'active', data: record }
      : { ...envelope, status: 'deactivated', data: record };
  });
}

async function entryOf(asked: string, data: ProviderData): Promise<NpiBatchEntry> {
  const problem = npiProblem(asked);
  if (problem !== null) return { npi: asked, status: 'invalid', reason: problem };
  const line = await data.findNpi(asked);
  if (line === null) return { npi: asked, status: 'not_found', reason: 'No NPPES record has this NPI.' };
  return { npi: asked, status: line.status, record: presentNpiLine(line) };
}

/** Up to 100 NPIs, one entry each in the order asked. Throws 400 `invalid_parameter`, 429 `quota_exceeded`. */
export async function lookupNpis(
  input: { credentials: Credentials; numbers: string | undefined },
  deps: CoreDeps,
): Promise<NpiBatchResult> {
  const principal = await authenticate(input.credentials, deps);
  const asked = parseNpiList(input.numbers);
  return deps.snapshots.withSnapshot(async (data) => {
    const entries = await Promise.all(asked.map((npi) => entryOf(npi, data)));
    const charge = await chargeCall(principal, deps, asked.length);
    return { ...envelopeOf(principal), ...charge, data: entries };
  });
}
