/**
 * Use case: one provider by entity_id or slug (`GET /providers/{id}`). Tiering and the publication boundary are those of
 * the list. A builder key gets 403 for a provider of another vertical; the 404 comes first, so a builder key
 * cannot probe other verticals for existence beyond what the public coverage already shows.
 */
import type { Plan, PublishBoundary, Tier } from '../../data-contracts/constants';
import { PARAMETER_RULES } from '../../data-contracts/parameter-rules';
import { providerFromRow } from '../../data-contracts/rows';
import type { Provider, Usage } from '../../data-contracts/types';
import { carriesPublishTier, resolveBoundary } from '../masking/publication-boundary';
import { maskProvider } from '../masking/tier-masking';
import { ApiError } from './api-error';
import { admit, authoriseVertical, type Credentials } from './authenticate';
import { chargeCall } from './charge-call';
import { freeTierNotice } from './notices';
import { parseDetailRequest, type RawQuery } from './params';
import type { CoreDeps, RateLimitState } from './ports';

/** The input of {@link getProvider}. */
export interface GetProviderInput {
  credentials: Credentials;
  id: string;
  query: RawQuery;
}

export interface GetProviderResult {
  tier: Tier;
  plan: Plan;
  publishBoundary: PublishBoundary;
  usage?: Usage;
  notice?: string;
  data: Provider;
  rateLimit?: RateLimitState;
}

/** A longer id matches no provider: answered 404 without a lookup. */
const MAX_ID = PARAMETER_RULES.providerId.maxLength;

export async function getProvider(input: GetProviderInput, deps: CoreDeps): Promise<GetProviderResult> {
  const principal = await admit(input.credentials, deps);
  const { includeTracked } = parseDetailRequest(input.query);
  const boundary = resolveBoundary({ tier: principal.tier, format: 'json', includeTracked });
  return deps.snapshots.withSnapshot(async (data) => {
    const row = input.id.length > 0 && input.id.length <= MAX_ID ? await data.findVertical(input.id, boundary) : null;
    if (row === null) {
      throw new ApiError('not_found', 'No active provider matches this id.', {
        hint: 'Use an entity_id or a slug from a list response.',
      });
    }
    const provider = providerFromRow(row, { withPublishTier: carriesPublishTier(boundary) });
    authoriseVertical(principal, provider.vertical);
    const charge = await chargeCall(principal, deps);
    return {
      tier: principal.tier,
      plan: principal.plan,
      publishBoundary: boundary,
      ...charge,
      ...(principal.tier === 'free' ? { notice: freeTierNotice() } : {}),
      data: maskProvider(provider, principal.tier),
    };
  });
}
