/**
 * Use cases: the public coverage aggregate, its HTML page, and the public sample. No key, not
 * metered.
 * Both are static objects that the ETL wrote with the snapshot; they are served from the pinned snapshot, so
 * a response never mixes two snapshots. The sample is verified-only and in the full paid schema by
 * construction (the ETL builds it from the verified partitions).
 */
import { ApiError } from './api-error';
import { type Format, parseSampleRequest, type RawQuery } from './params';
import type { CoreDeps } from './ports';

/** Bytes ready for the wire, with the snapshot they come from. */
export interface StaticObject {
  format: Format;
  body: Buffer;
  snapshotId: string;
}

export function getCoverage(_input: Record<string, never>, deps: Pick<CoreDeps, 'snapshots'>): Promise<StaticObject> {
  return deps.snapshots.withSnapshot(async (data) => ({
    format: 'json',
    body: await data.readStatic('coverage'),
    snapshotId: data.snapshotId,
  }));
}

/** The coverage page's HTML bytes; 404 for a snapshot built before the ETL wrote the page. */
export function getCoveragePage(
  _input: Record<string, never>,
  deps: Pick<CoreDeps, 'snapshots'>,
): Promise<{ body: Buffer; snapshotId: string }> {
  return deps.snapshots.withSnapshot(async (data) => {
    if (!data.hasStatic('coveragePage')) {
      throw new ApiError('not_found', 'The current snapshot has no coverage page.', {
        hint:
          'It was built before the ETL wrote coverage.html: build a new snapshot ' +
          '(locally: npm run etl -- build --demo --out .local/data).',
      });
    }
    return { body: await data.readStatic('coveragePage'), snapshotId: data.snapshotId };
  });
}

export async function getSample(input: { query: RawQuery }, deps: Pick<CoreDeps, 'snapshots'>): Promise<StaticObject> {
  const { format } = parseSampleRequest(input.query);
  return deps.snapshots.withSnapshot(async (data) => ({
    format,
    body: await data.readStatic(format === 'csv' ? 'sampleCsv' : 'sampleJson'),
    snapshotId: data.snapshotId,
  }));
}
