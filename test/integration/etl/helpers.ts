/** Helpers of the ETL integration suites: temp stores, an independent DuckDB for checks, manifest integrity. */
import { createHash } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { SnapshotManifest, SnapshotPointer } from '../../../data-contracts/layout';
import { parseCsv } from '../../../etl/csv/read';
import type { ObjectStore } from '../../../platform/object-store';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const SOURCE_DATA = path.join(REPO_ROOT, 'test', 'fixtures', 'source-data');

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

/** A separate DuckDB for assertions, independent of the ETL's code. */
export async function checkDb() {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  return {
    async rows(sql: string): Promise<Record<string, unknown>[]> {
      const reader = await connection.runAndReadAll(sql);
      return reader.getRowObjectsJson() as Record<string, unknown>[];
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** A raw CSV scan, all text, for reading the sources themselves in a test. */
export const rawCsv = (file: string) =>
  `read_csv('${file.replace(/'/g, "''")}', all_varchar = true, header = true, delim = ',', quote = '"', escape = '"')`;

export async function readJson<T>(store: ObjectStore, key: string): Promise<T> {
  const object = await store.getBytes(key);
  if (!object) throw new Error(`${key} missing`);
  return JSON.parse(object.body.toString('utf8')) as T;
}

export async function currentOf(store: ObjectStore) {
  const pointer = await readJson<SnapshotPointer>(store, 'current.json');
  const manifest = await readJson<SnapshotManifest>(store, pointer.manifest_key);
  return { pointer, manifest };
}

/** Every object of a manifest exists with the listed size and SHA-256 (the snapshot is complete and readable). */
export async function expectSnapshotComplete(store: ObjectStore, manifestKey: string): Promise<void> {
  const manifest = await readJson<SnapshotManifest>(store, manifestKey);
  expect(manifest.objects.length).toBeGreaterThan(0);
  for (const object of manifest.objects) {
    const got = await store.getBytes(object.key);
    expect(got).not.toBeNull();
    expect(got?.body.length).toBe(object.bytes);
    expect(
      createHash('sha256')
        .update(got?.body ?? Buffer.alloc(0))
        .digest('hex'),
    ).toBe(object.sha256);
  }
}

export type RejectRow = { source: string; file: string; line: number; reason: string; raw: string };

/** The rows of a snapshot's rejects.csv, `file` as its base name. */
export async function rejectsOf(store: ObjectStore, snapshotId: string): Promise<RejectRow[]> {
  const csv = (await store.getBytes(`snapshots/${snapshotId}/rejects/rejects.csv`))?.body.toString('utf8') ?? '';
  const [, ...rows] = parseCsv(csv);
  return rows.map((r) => {
    const [source = '', file = '', line = '', reason = '', raw = ''] = r.fields;
    return { source, file: path.basename(file), line: Number(line), reason, raw };
  });
}
