/**
 * Snapshot retention: tags the objects of superseded snapshots with SNAPSHOT_RETENTION_TAG so that the bucket's
 * lifecycle rule expires them after the retention period (infra/constructs/data-store.ts explains why expiry is
 * opt-in by tag). Only tagging, never deleting: the bucket's lifecycle does the deleting, and versioning keeps an
 * expired object restorable for another period.
 *
 * Which snapshots: every snapshot OLDER than the current one (ids sort by their UTC timestamp), except the newest
 * `keepPrevious` complete ones (with a manifest), kept as rollback targets. Partial snapshots left by failed runs
 * (no manifest) older than the current one are tagged too. Snapshots newer than the current one are never touched:
 * a build may be writing them right now.
 */
import { isSnapshotId, manifestKey, SNAPSHOT_RETENTION_TAG, SNAPSHOTS_PREFIX } from '../../data-contracts/layout';
import { type Logger, silentLogger } from '../../platform/logger';
import type { ObjectStore } from '../../platform/object-store';

export interface RetentionSummary {
  /** Snapshots tagged superseded by this run. */
  tagged: string[];
  /** Older snapshots kept untagged as rollback targets. */
  kept: string[];
  /** Snapshots that were already tagged by an earlier run. */
  already: string[];
}

/** Groups the keys under `snapshots/` by snapshot id, ignoring anything that is not a snapshot folder. */
function groupBySnapshot(keys: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const key of keys) {
    const id = key.slice(SNAPSHOTS_PREFIX.length).split('/')[0] ?? '';
    if (!isSnapshotId(id)) continue;
    const list = groups.get(id) ?? [];
    list.push(key);
    groups.set(id, list);
  }
  return groups;
}

/**
 * Tags every object of each superseded snapshot. The manifest (or, for a partial snapshot, its last key) is tagged
 * last and checked first, so a snapshot whose tagging was cut short is finished on the next run and a finished one
 * costs a single request.
 * @example await markSupersededSnapshots({ store, currentId: manifest.snapshot_id })
 */
export async function markSupersededSnapshots(options: {
  store: ObjectStore;
  currentId: string;
  keepPrevious?: number;
  logger?: Logger;
}): Promise<RetentionSummary> {
  const { store, currentId } = options;
  const keepPrevious = options.keepPrevious ?? 1;
  const logger = options.logger ?? silentLogger;
  const groups = groupBySnapshot(await store.list(SNAPSHOTS_PREFIX));
  const older = [...groups.keys()].filter((id) => id < currentId).sort();
  const summary: RetentionSummary = { tagged: [], kept: [], already: [] };

  let toKeep = keepPrevious;
  for (const id of older.reverse()) {
    const keys = groups.get(id) ?? [];
    const manifest = manifestKey(id);
    const complete = keys.includes(manifest);
    if (complete && toKeep > 0) {
      toKeep -= 1;
      summary.kept.push(id);
      continue;
    }
    // The manifest goes last; a partial snapshot's last key stands in for it.
    const ordered = complete ? [...keys.filter((k) => k !== manifest), manifest] : keys;
    const marker = ordered[ordered.length - 1];
    if (marker === undefined) continue;
    const tags = await store.getTags(marker);
    if (tags[SNAPSHOT_RETENTION_TAG.key] === SNAPSHOT_RETENTION_TAG.superseded) {
      summary.already.push(id);
      continue;
    }
    for (const key of ordered) {
      await store.setTags(key, { [SNAPSHOT_RETENTION_TAG.key]: SNAPSHOT_RETENTION_TAG.superseded });
    }
    summary.tagged.push(id);
  }
  logger.info('snapshot retention', { current: currentId, ...summary });
  return summary;
}
