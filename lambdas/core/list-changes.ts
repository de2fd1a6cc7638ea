/**
 * Use case: the change feed, `GET /changes?since=` (data-contracts/changes.ts). Every plan may call it; a key bound
 * to one vertical sees the identity changes and its own vertical's changes. Paid values (signal and price changes)
 * are locked for a free key, which still sees that they changed.
 *
 * Order: authenticate (401), validate (400), authorise a `vertical` (403), resolve `since` against the kept span
 * (400 `since_too_old`), query, check the offset (400), meter one call (429), answer.
 */
import {
  type ChangeField,
  type ChangeKind,
  type ChangesSpan,
  IDENTITY_CHANGE_KINDS,
  PAID_CHANGE_FIELDS,
} from '../../data-contracts/changes';
import {
  OIG_CANDIDATE_NOTE,
  OIG_EXCLUDED_NOTE,
  OIG_REMOVED_NOTE,
  PLAN_RULES,
  type Plan,
  type Tier,
  type Vertical,
} from '../../data-contracts/constants';
import { lockedField } from '../../data-contracts/rows';
import type { ChangeEntry, ChangeFilters, ChangeSpanBody, Pagination, Usage } from '../../data-contracts/types';
import type { ChangeRow, ChangesQuery } from '../query/types';
import { ApiError } from './api-error';
import { admit, authoriseVertical, type Credentials } from './authenticate';
import { type ChangesRequest, parseChangesRequest, resolveSince } from './changes-params';
import { chargeCall } from './charge-call';
import { freeTierNotice } from './notices';
import { assertOffsetWithin, type Format, type RawQuery } from './params';
import type { CoreDeps, Principal, RateLimitState } from './ports';

export interface ListChangesInput {
  credentials: Credentials;
  query: RawQuery;
  /** Every value of the repeated `kind` parameter. */
  kinds: readonly string[];
}

export interface ListChangesResult {
  tier: Tier;
  plan: Plan;
  format: Format;
  usage?: Usage;
  notice?: string;
  rateLimit?: RateLimitState;
  span: ChangeSpanBody;
  pagination: Pagination;
  filters: ChangeFilters;
  data: ChangeEntry[];
}

const IDENTITY_KINDS = new Set<ChangeKind>(IDENTITY_CHANGE_KINDS);
/** The notes of the OIG kinds: what an NPI match or a possible match can and cannot say. */
const OIG_NOTES: Partial<Record<ChangeKind, string>> = {
  oig_excluded: OIG_EXCLUDED_NOTE,
  oig_removed: OIG_REMOVED_NOTE,
  oig_candidate_added: OIG_CANDIDATE_NOTE,
  oig_candidate_removed: OIG_CANDIDATE_NOTE,
};
const PAID_FIELDS = new Set<string>(PAID_CHANGE_FIELDS);

/**
 * @example
 * const page = await listChanges({ credentials, query: { since: '2026-10-01', npi: '1003633876' }, kinds: [] }, deps);
 */
export async function listChanges(input: ListChangesInput, deps: CoreDeps): Promise<ListChangesResult> {
  const principal = await admit(input.credentials, deps);
  const request = parseChangesRequest(input.query, input.kinds);
  if (request.vertical !== null) authoriseVertical(principal, request.vertical);
  if (request.vertical !== null && request.kinds?.every((k) => IDENTITY_KINDS.has(k))) {
    throw new ApiError(
      'invalid_parameter',
      'vertical selects vertical changes, and every kind asked is an identity kind.',
      {
        hint: 'Drop vertical to see identity changes, or ask verified_added, verified_removed or signal_changed.',
      },
    );
  }

  return deps.snapshots.withSnapshot(async (data) => {
    const span = data.changesSpan();
    const from = resolveSince(request.since, span);
    const page = await data.listChanges(queryOf(request, principal, from.asOf));
    assertOffsetWithin(request.offset, page.total);
    const charge = await chargeCall(principal, deps);
    return {
      tier: principal.tier,
      plan: principal.plan,
      format: request.format,
      ...charge,
      ...(principal.tier === 'free' ? { notice: freeTierNotice() } : {}),
      span: spanBody(request, span, from, { snapshotId: data.snapshotId, asOf: data.asOf }),
      pagination: { total: page.total, limit: request.limit, offset: request.offset, returned: page.rows.length },
      filters: { kind: request.kinds, npi: request.npis, vertical: request.vertical },
      data: page.rows.map((row) => presentChange(row, principal.tier)),
    };
  });
}

/** Which changes the caller may see: identity ones unless a vertical is asked; vertical ones within its binding. */
function queryOf(request: ChangesRequest, principal: Principal, after: string): ChangesQuery {
  const bound = PLAN_RULES[principal.plan].verticalBound;
  let verticals: Vertical[] | null;
  if (request.vertical !== null) verticals = [request.vertical];
  else if (bound) verticals = principal.vertical === null ? [] : [principal.vertical];
  else verticals = null;
  const identity =
    request.vertical === null && (request.kinds === null || request.kinds.some((k) => IDENTITY_KINDS.has(k)));
  return {
    after,
    kinds: request.kinds,
    npis: request.npis,
    identity,
    verticals,
    limit: request.limit,
    offset: request.offset,
  };
}

function spanBody(
  request: ChangesRequest,
  span: ChangesSpan,
  from: { snapshotId: string; asOf: string },
  current: { snapshotId: string; asOf: string },
): ChangeSpanBody {
  return {
    since: request.since.raw,
    from_snapshot: from.snapshotId,
    from_as_of: from.asOf,
    to_snapshot: current.snapshotId,
    to_as_of: current.asOf,
    oldest_snapshot: span.oldest_snapshot,
    oldest_as_of: span.oldest_as_of,
    retention_months: span.retention_months,
  };
}

function parsed(value: string | null): ChangeEntry['old'] {
  return value === null ? null : (JSON.parse(value) as ChangeEntry['old']);
}

/** A stored change as the wire's entry: values parsed, paid ones locked for a free key, OIG notes added. */
export function presentChange(row: ChangeRow, tier: Tier): ChangeEntry {
  const locked = tier === 'free' && row.field !== null && PAID_FIELDS.has(row.field);
  const note = OIG_NOTES[row.kind];
  return {
    kind: row.kind,
    npi: row.npi,
    entity_id: row.entity_id,
    vertical: row.vertical as ChangeEntry['vertical'],
    field: row.field as ChangeField | null,
    old: locked ? lockedField() : parsed(row.old_value),
    new: locked ? lockedField() : parsed(row.new_value),
    ...(note ? { note } : {}),
    from_snapshot: row.from_snapshot,
    from_as_of: row.from_as_of,
    to_snapshot: row.to_snapshot,
    to_as_of: row.to_as_of,
  };
}
