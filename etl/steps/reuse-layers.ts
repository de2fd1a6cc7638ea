/**
 * A build that reuses the current snapshot's base layers instead of NPPES and NUCC (the feed Lambda): its identity
 * partitions, serving indexes, NPI buckets, search indexes, taxonomy map, ZIP table and screening lists are copied byte for byte
 * into the new snapshot, so that a feed-only build needs no NPPES and every snapshot stays self-contained.
 */
import path from 'node:path';
import {
  LAYOUT_VERSION,
  type ManifestObject,
  SCREEN_NAMES,
  type ScreenName,
  screenKey,
  snapshotPrefix,
} from '../../data-contracts/layout';
import type { LeieRelease } from '../../data-contracts/manifest';
import type { ObjectStore } from '../../platform/object-store';
import { CONTENT_TYPES, readCurrentSnapshot } from '../../platform/snapshot-protocol';
import { EtlInputError } from '../errors';
import type { VerticalFile } from '../writers/parquet';
import type { BuildContext, PendingUpload } from './context';
import type { BaseLayerFiles } from './write-base-layers';

const SCREEN_MISSING: Record<ScreenName, string> = {
  'oig-leie': 'the current snapshot has no OIG screening list to reuse; pass LEIE files',
  'fda-letters': 'the current snapshot has no FDA letters list to reuse; pass FDA files',
};

type Current = NonNullable<Awaited<ReturnType<typeof readCurrentSnapshot>>>;

/**
 * The current snapshot's base layers, reused by a build without NPPES (the feed Lambda): downloaded in the sources
 * step, their screening lists read from there, and copied into the new snapshot by the parquet step.
 */
export class ReusedLayers {
  readonly reusedFrom: string;
  /** The objects to carry over, in manifest order, with their local copies. */
  private readonly reused: { file: string; object: ManifestObject }[] = [];

  constructor(private readonly current: Current) {
    this.reusedFrom = current.pointer.snapshot_id;
  }

  /** The screening list `object` is, if any (snapshots before the `screen` kind listed them as `static`). */
  private screenOf(object: ManifestObject): ScreenName | undefined {
    return SCREEN_NAMES.find((name) => object.key === screenKey(this.reusedFrom, name));
  }

  /** Sources step, first: the local copies of the objects to reuse. */
  async download(ctx: BuildContext): Promise<void> {
    // Identity, NPI lookup, taxonomy, vertical and screening objects of the current snapshot, downloaded for re-upload and reuse.
    const wanted = this.current.manifest.objects.filter(
      (o) =>
        o.kind === 'identity' ||
        o.kind === 'identity_index' ||
        o.kind === 'npi' ||
        o.kind === 'search' ||
        o.kind === 'taxonomy' ||
        o.kind === 'vertical' ||
        o.kind === 'screen' ||
        o.kind === 'zip_table' ||
        this.screenOf(o) !== undefined,
    );
    for (const [i, object] of wanted.entries()) {
      const file = path.join(ctx.work, 'reuse', `${i}.parquet`);
      if (!(await ctx.store.download(object.key, file))) throw new Error(`${object.key} is missing from the store`);
      this.reused.push({ file, object });
      ctx.progress('reuse', { file: object.key, rows: i + 1 });
    }
  }

  /** The LEIE files the reused snapshot was screened with (its manifest's), or null when it does not say. */
  leieFiles(): LeieRelease[] | null {
    return this.current.manifest.leie_files ?? null;
  }

  /** The local copy of a screening list to reuse (when the build is given no files of its own). */
  screen(name: ScreenName): string {
    const found = this.reused.find((r) => this.screenOf(r.object) === name);
    if (!found) throw new Error(SCREEN_MISSING[name]);
    return found.file;
  }

  /** Parquet step: the reused objects (all but the vertical partitions) as uploads of the new snapshot. */
  layerFiles(ctx: BuildContext): BaseLayerFiles {
    const uploads: PendingUpload[] = [];
    const identityFiles: string[] = [];
    let zipTableFile: string | null = null;
    for (const { file, object } of this.reused) {
      if (object.kind === 'vertical') continue;
      const key = object.key.replace(snapshotPrefix(this.reusedFrom), snapshotPrefix(ctx.snapshotId));
      const { key: _old, bytes: _b, sha256: _s, ...meta } = object;
      if (this.screenOf(object) !== undefined) meta.kind = 'screen';
      const binary =
        object.kind === 'identity_index' ||
        object.kind === 'npi' ||
        object.kind === 'search' ||
        object.kind === 'zip_table';
      const contentType = binary ? CONTENT_TYPES.binary : CONTENT_TYPES.parquet;
      uploads.push({ key, file, contentType, meta });
      if (object.kind === 'identity') identityFiles.push(file);
      if (object.kind === 'zip_table') zipTableFile = file;
    }
    const { counts } = this.current.manifest;
    return { uploads, identityFiles, identityNpis: counts.identity, taxonomyRows: counts.taxonomies, zipTableFile };
  }

  /** Vertical partitions carried over into the new snapshot: those of verticals the feed lacks. */
  carriedVerticals(feedVerticals: ReadonlySet<string>): VerticalFile[] {
    // The feed replaces its own verticals; the current snapshot's other verticals are carried over.
    const carried: VerticalFile[] = [];
    for (const { file, object } of this.reused) {
      if (object.kind !== 'vertical' || !object.vertical || feedVerticals.has(object.vertical) || !object.boundary)
        continue;
      carried.push({
        file,
        rows: object.rows ?? 0,
        boundary: object.boundary,
        vertical: object.vertical,
        state: object.state ?? null,
      });
    }
    return carried;
  }
}

/**
 * The current snapshot's base layers, for a build that reuses them.
 * @throws EtlInputError when the store has no current snapshot.
 */
export async function openReusedLayers(store: ObjectStore): Promise<ReusedLayers> {
  let current: Awaited<ReturnType<typeof readCurrentSnapshot>>;
  try {
    current = await readCurrentSnapshot(store);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new EtlInputError(
      store.location,
      `the current snapshot cannot be reused (${why}); run a full build with the NPPES and NUCC inputs first`,
    );
  }
  if (!current) throw new EtlInputError(store.location, 'no current snapshot to reuse the identity layer from');
  if (current.manifest.layout_version !== LAYOUT_VERSION) {
    throw new EtlInputError(
      store.location,
      `the current snapshot has layout ${current.manifest.layout_version}, this build writes ${LAYOUT_VERSION}; ` +
        'run a full build with the NPPES and NUCC inputs first',
    );
  }
  return new ReusedLayers(current);
}
