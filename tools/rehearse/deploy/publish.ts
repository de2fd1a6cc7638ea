/**
 * Puts a snapshot into the rehearsal's bucket through the real S3 client:
 * - the demo: the ETL CLI builds its two snapshots with `--bucket` (as the national task publishes), so the
 *   rehearsal serves what `npm start` serves;
 * - a bench snapshot (`.bench/api/rows-N/data`, built by the real ETL into a folder): its current manifest's objects,
 *   the manifest, the public objects and last the pointer, uploaded with `S3ObjectStore` (the ETL's own store).
 *   A bucket that already holds that snapshot is left as it is.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ENV } from '../../../data-contracts/env';
import {
  type ManifestObject,
  manifestKey as manifestKeyOf,
  POINTER_KEY,
  PUBLIC_KEYS,
  storedKeysOf,
} from '../../../data-contracts/layout';
import { createS3Client, S3ObjectStore } from '../../../platform/s3-store';
import { CONTENT_TYPES, parsePointer, readPointer } from '../../../platform/snapshot-protocol';
import { REHEARSAL_REGION } from './services';

/** Builds the demo's snapshots A then B into `bucket` with the ETL CLI. */
export async function publishDemo(repoRoot: string, endpoint: string, bucket: string): Promise<void> {
  for (const snapshot of ['a', 'b']) {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
          'etl/cli.ts',
          'build',
          '--demo',
          '--demo-snapshot',
          snapshot,
          '--bucket',
          bucket,
          '--json',
        ],
        {
          cwd: repoRoot,
          stdio: ['ignore', 'ignore', 'pipe'],
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? repoRoot,
            [ENV.s3Endpoint]: endpoint,
            [ENV.awsRegion]: REHEARSAL_REGION,
          },
        },
      );
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`the demo build ${snapshot} failed (${code}): ${stderr.slice(-2000)}`)),
      );
    });
  }
}

/**
 * Uploads the current snapshot of the folder store at `dataDir` unless the bucket already points at it; with
 * `everything`, every file of the folder (a small chain of snapshots, such as the demo's two).
 */
export async function publishFolderSnapshot(
  dataDir: string,
  endpoint: string,
  bucket: string,
  say: (line: string) => void,
  options: { everything?: boolean } = {},
): Promise<{ snapshotId: string; objects: number; bytes: number; uploaded: boolean }> {
  const pointerText = await readFile(path.join(dataDir, POINTER_KEY));
  const pointer = parsePointer(pointerText);
  const client = createS3Client({ endpoint, region: REHEARSAL_REGION });
  const store = new S3ObjectStore(client, bucket, '');
  try {
    const manifestKey = manifestKeyOf(pointer.snapshot_id);
    const manifest = JSON.parse(await readFile(path.join(dataDir, manifestKey), 'utf8')) as {
      objects: Pick<ManifestObject, 'key' | 'bytes' | 'block_digests'>[];
    };
    const bytes = manifest.objects.reduce((sum, o) => sum + (o.bytes ?? 0), 0);
    const current = await readPointer(store).catch(() => null);
    if (current?.snapshot_id === pointer.snapshot_id) {
      return { snapshotId: pointer.snapshot_id, objects: manifest.objects.length, bytes, uploaded: false };
    }
    say(`publishing snapshot ${pointer.snapshot_id} to s3rver: ${manifest.objects.length} objects, ${mb(bytes)} MB`);
    const keys = options.everything
      ? (await listFiles(dataDir)).filter((key) => key !== POINTER_KEY)
      : [...storedKeysOf(manifest.objects), manifestKey, ...Object.values(PUBLIC_KEYS)];
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < keys.length; i = next++) {
        const key = keys[i] as string;
        const file = path.join(dataDir, key);
        if (!existsSync(file)) continue;
        await store.upload(key, file, contentTypeOf(key));
      }
    };
    await Promise.all(Array.from({ length: 8 }, lane));
    // The pointer last: the snapshot is complete before anyone is told of it (the snapshot protocol's rule).
    await store.put(POINTER_KEY, pointerText, CONTENT_TYPES.json);
    return { snapshotId: pointer.snapshot_id, objects: manifest.objects.length, bytes, uploaded: true };
  } finally {
    client.destroy();
  }
}

/** Every file under `dir`, as keys (`/`-separated paths relative to it). */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

function contentTypeOf(key: string): string {
  if (key.endsWith('.json')) return CONTENT_TYPES.json;
  if (key.endsWith('.csv')) return CONTENT_TYPES.csv;
  if (key.endsWith('.html')) return CONTENT_TYPES.html;
  if (key.endsWith('.parquet')) return CONTENT_TYPES.parquet;
  return CONTENT_TYPES.binary;
}

function mb(bytes: number): string {
  return (bytes / 1024 ** 2).toFixed(0);
}
