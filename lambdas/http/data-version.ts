/**
 * Answers tied to a data version: every keyed answer names the snapshot it was read from and the data's as-of
 * time (the snapshot time: the manifest's `created_at`, the coverage's `generated_at`), in the JSON envelope
 * (`snapshot_id`, `as_of`) and in the headers `X-Snapshot-Id` and `X-Data-As-Of`, with an `ETag` that names the
 * representation: snapshot, contract revision, route, every value of every query parameter (in request order per
 * parameter; never the key), the caller's variant
 * (plan, and the bound vertical of a builder key) and the format. The per-call usage numbers are not part of it,
 * so the tag is weak (`W/"…"`) where they appear in the body (JSON of the metered plans).
 */
import { createHash, hash } from 'node:crypto';
import { PLAN_RULES } from '../../data-contracts/constants';
import openApiJson from '../../data-contracts/openapi.json';
import type { Principal } from '../core/ports';

/** The snapshot an answer was read from. */
export interface DataVersion {
  snapshotId: string;
  /** ISO 8601 date-time, UTC. */
  asOf: string;
}

/** The contract's revision: a new document (a new field, a new shape) makes new tags for the same snapshot. */
const CONTRACT_REVISION = createHash('sha256').update(JSON.stringify(openApiJson)).digest('base64url').slice(0, 12);

/** What an entity tag is derived from. */
export interface TagInput {
  version: DataVersion;
  /** The request path; a trailing slash is dropped (both forms are one route). */
  path: string;
  /**
   * Every value of each query parameter, in request order (`c.req.queries()`): a use case may read more than the
   * first (the change feed's `kind`), so two requests that differ in any value never share a tag.
   */
  query: Readonly<Record<string, readonly string[] | undefined>>;
  principal: Pick<Principal, 'plan' | 'vertical'>;
}

/**
 * The entity tag of a keyed answer. A parameter whose only value is empty counts as absent (the use cases read it
 * so), and `key` never counts, so the same request by any key of the same plan, by any of the three key forms, gets
 * the same tag. Repeated values are kept in order, empty ones included: `kind=a&kind=b`, `kind=a` and
 * `state=&state=CA` each get their own.
 * @example entityTag({ version, path: '/api/v1/providers', query: { vertical: ['glp1'] }, principal }) // 'W/"…"'
 */
export function entityTag(input: TagInput): string {
  const { version, query, principal } = input;
  const format = query.format?.[0] || 'json';
  const params: [string, readonly string[]][] = [];
  for (const [name, values] of Object.entries(query)) {
    if (name === 'key' || values === undefined || values.length === 0) continue;
    if (values.length === 1 && values[0] === '') continue;
    // The first format is the answer's format (below); any other value of it still names another request.
    if (name === 'format' && values.length === 1) continue;
    params.push([name, values]);
  }
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const rules = PLAN_RULES[principal.plan];
  const variant = rules.verticalBound ? `${principal.plan}:${principal.vertical ?? ''}` : principal.plan;
  const path = input.path.length > 1 ? input.path.replace(/\/+$/, '') : input.path;
  // The one-shot hash: no Hash object per request (createHash costs about three times as much).
  const digest = hash(
    'sha256',
    JSON.stringify([CONTRACT_REVISION, version.snapshotId, path, params, variant, format]),
    'base64url',
  ).slice(0, 24);
  const weak = rules.reportsUsage && format === 'json';
  return weak ? `W/"${digest}"` : `"${digest}"`;
}

/**
 * True when an `If-None-Match` header lists `etag`, by the weak comparison of RFC 9110 §13.1.2 (`W/` ignored).
 * `*` is not honoured: without running the request the API cannot tell whether it has a current representation
 * (a 404 or 403 must not become a 304), so `*` gets the full answer.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

/** The headers of a keyed answer (200 and 304): the snapshot, its as-of time and the tag. */
export function dataVersionHeaders(version: DataVersion, etag: string): Record<string, string> {
  return { ETag: etag, 'X-Snapshot-Id': version.snapshotId, 'X-Data-As-Of': version.asOf };
}

/** The envelope fields of a keyed JSON answer. */
export function dataVersionFields(version: DataVersion): { snapshot_id: string; as_of: string } {
  return { snapshot_id: version.snapshotId, as_of: version.asOf };
}
