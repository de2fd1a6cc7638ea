/**
 * The publication boundary (docs/api-guide.md): every tier gets the verified set by default; the tracked set
 * (verified and internal_only records) is visible to the free tier through `include=tracked`, in JSON only.
 * The paid tier, the sample and every CSV stay verified-only: for them `include=tracked` is ignored (the
 * documented choice: the request is not refused).
 */
import type { PublishBoundary, Tier } from '../../data-contracts/constants';

/** What decides the boundary of one response. */
export interface BoundaryRequest {
  tier: Tier;
  format: 'json' | 'csv';
  includeTracked: boolean;
}

/**
 * The boundary a response is served from.
 * @example resolveBoundary({ tier: 'free', format: 'json', includeTracked: true }) === 'tracked'
 */
export function resolveBoundary(request: BoundaryRequest): PublishBoundary {
  return request.includeTracked && request.tier === 'free' && request.format === 'json' ? 'tracked' : 'verified';
}

/** `publish_tier` is carried on rows only in tracked responses. */
export function carriesPublishTier(boundary: PublishBoundary): boolean {
  return boundary === 'tracked';
}
