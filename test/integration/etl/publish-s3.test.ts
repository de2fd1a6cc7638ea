import path from 'node:path';
import { DeleteObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import {
  PUBLIC_KEYS,
  SNAPSHOT_RETENTION_TAG,
  STATIC_FILES,
  snapshotPrefix,
  staticKey,
} from '../../../data-contracts/layout';
import { buildSnapshot } from '../../../etl/build';
import { runCli } from '../../../etl/cli';
import { DEMO_LEIE_AS_OF, demoBuildInputs } from '../../../etl/cli/demo-inputs';
import { rebuildStatic } from '../../../etl/rebuild-static';
import { S3ObjectStore } from '../../../platform/s3-store';
import { CONTENT_TYPES, newSnapshotId, SnapshotPublisher } from '../../../platform/snapshot-protocol';
import { type S3rverHandle, startS3rver } from '../../helpers/s3rver';
import { currentOf, expectSnapshotComplete, REPO_ROOT } from './helpers';

/** Runs the ETL CLI in-process against an S3 endpoint and captures what it prints. */
async function runCliCapturing(
  args: string[],
  endpoint: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    stderrIsTty: false,
    env: { PF_S3_ENDPOINT: endpoint },
    cwd: REPO_ROOT,
  });
  return { code, stdout, stderr };
}

describe('publishing to S3 (s3rver, real S3 client)', () => {
  let s3: S3rverHandle;

  beforeAll(async () => {
    s3 = await startS3rver();
  });

  afterAll(async () => {
    await s3?.stop();
  });

  it('publishes a complete snapshot under a prefix, then the pointer, then the public objects', async () => {
    const store = new S3ObjectStore(s3.client, s3.bucket, 'pf');
    const summary = await buildSnapshot({ store, inputs: demoBuildInputs(REPO_ROOT) });
    const { pointer, manifest } = await currentOf(store);
    expect(pointer.snapshot_id).toBe(summary.snapshot_id);
    expect(manifest.counts).toEqual(summary.counts);
    await expectSnapshotComplete(store, pointer.manifest_key);
    const keys = await store.list('');
    expect(keys).toEqual(
      expect.arrayContaining([
        'current.json',
        'public/coverage.json',
        'public/coverage.html',
        'public/sample.json',
        'public/sample.csv',
      ]),
    );
    const identityKeys = keys.filter((k) => k.includes('/identity/'));
    // One file per classification partition.
    expect(new Set(identityKeys.map((k) => k.split('/').slice(0, -1).join('/'))).size).toBe(identityKeys.length);
  });

  it('rebuilds the public objects from the bucket alone', async () => {
    const store = new S3ObjectStore(s3.client, s3.bucket, 'pf');
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: 'pf/public/sample.json' }));
    const summary = await rebuildStatic({ store });
    expect(summary.counts.sample).toBe(50);
    expect(await store.head('public/sample.json')).not.toBeNull();
  });

  it('rebuilds the coverage page hourly: public/coverage.html, served as HTML, the snapshot page byte for byte', async () => {
    const store = new S3ObjectStore(s3.client, s3.bucket, 'pf');
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `pf/${PUBLIC_KEYS.coveragePage}` }));
    const summary = await rebuildStatic({ store });
    const head = await s3.client.send(
      new HeadObjectCommand({ Bucket: s3.bucket, Key: `pf/${PUBLIC_KEYS.coveragePage}` }),
    );
    // CloudFront passes the object's type through: the page must be stored as HTML.
    expect(head.ContentType).toBe(CONTENT_TYPES.html);
    const page = (await store.getBytes(PUBLIC_KEYS.coveragePage))?.body.toString('utf8') ?? '';
    const built = await store.getBytes(staticKey(summary.snapshot_id, STATIC_FILES.coveragePage));
    expect(page).toBe(built?.body.toString('utf8'));
    expect(page).toContain(`data-figure="verified.total">${summary.counts.verified}<`);
    const coverage = (await store.getBytes(PUBLIC_KEYS.coverage))?.body.toString('utf8') ?? '';
    expect(page).toContain(`<time datetime="${JSON.parse(coverage).generated_at}"`);
  });

  it('tags superseded snapshots for expiry, keeping the current one and the newest older one untagged', async () => {
    const store = new S3ObjectStore(s3.client, s3.bucket, 'retention');
    // Two older published snapshots (manifest and one object each: retention reads keys and manifests, not data),
    // then a real build, which the hourly rebuild needs as the current snapshot.
    const ids: string[] = [];
    for (const time of ['2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z']) {
      const publisher = new SnapshotPublisher(store, newSnapshotId(new Date(time)));
      const key = `${snapshotPrefix(publisher.snapshotId)}static/coverage.json`;
      await publisher.putText(key, '{}', CONTENT_TYPES.json, { kind: 'static' });
      await publisher.putManifest({
        created_at: time,
        sources: {},
        counts: { identity: 0, tracked: 0, verified: 0, taxonomies: 0, rejects: 0 },
      });
      ids.push(publisher.snapshotId);
    }
    // After every date of the demo inputs (a letter, an exclusion or an observation after the snapshot is rejected).
    const time = new Date('2026-11-01T00:00:00Z');
    ids.push((await buildSnapshot({ store, inputs: demoBuildInputs(REPO_ROOT), snapshotTime: time })).snapshot_id);
    // A partial snapshot left by a failed run: objects but no manifest.
    const partial = '20251201T000000Z-partial1';
    await store.put(`snapshots/${partial}/static/coverage.json`, '{}', 'application/json');
    const [oldest, previous, current] = ids as [string, string, string];
    const tagOf = async (id: string) =>
      (await store.getTags(`snapshots/${id}/manifest.json`))[SNAPSHOT_RETENTION_TAG.key] ?? null;

    const first = await rebuildStatic({ store });
    expect(first.retention).toEqual({ tagged: [oldest, partial], kept: [previous], already: [] });
    expect(await tagOf(current)).toBeNull();
    expect(await tagOf(previous)).toBeNull();
    expect(await tagOf(oldest)).toBe('superseded');
    const oldestKeys = await store.list(`snapshots/${oldest}/`);
    for (const key of oldestKeys) expect((await store.getTags(key))[SNAPSHOT_RETENTION_TAG.key]).toBe('superseded');
    expect((await store.getTags(`snapshots/${partial}/static/coverage.json`))[SNAPSHOT_RETENTION_TAG.key]).toBe(
      'superseded',
    );
    for (const key of await store.list(`snapshots/${current}/`)) expect(await store.getTags(key)).toEqual({});

    const second = await rebuildStatic({ store });
    expect(second.retention).toEqual({ tagged: [], kept: [previous], already: [oldest, partial] });
  });

  it('reads s3:// inputs from the bucket (the NPPES task path) and publishes to it', async () => {
    const demo = demoBuildInputs(REPO_ROOT);
    const raw = new S3ObjectStore(s3.client, s3.bucket);
    const uri = async (file: string, key: string) => {
      await raw.upload(key, file, 'text/csv');
      return `s3://${s3.bucket}/${key}`;
    };
    const [feedDir] = demo.feeds as [string];
    await raw.upload('inputs/feed/providers.csv', path.join(feedDir, 'providers.csv'), 'text/csv');
    await raw.upload('inputs/feed/observations.csv', path.join(feedDir, 'observations.csv'), 'text/csv');
    const args = [
      'build',
      '--bucket',
      s3.bucket,
      '--prefix',
      'from-s3',
      '--nppes',
      await uri(demo.nppes[0] as string, 'inputs/nppes.csv'),
      '--nucc',
      await uri(demo.nucc, 'inputs/nucc.csv'),
      '--leie',
      await uri(demo.leie[0] as string, 'inputs/leie.csv'),
      '--leie-as-of',
      DEMO_LEIE_AS_OF,
      '--fda',
      await uri(demo.fda[0] as string, 'inputs/fda.csv'),
      '--feed',
      `s3://${s3.bucket}/inputs/feed/`,
      '--json',
    ];
    const { code, stdout, stderr } = await runCliCapturing(args, s3.endpoint);
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    const summary = JSON.parse(stdout);
    expect(summary.counts).toMatchObject({ identity: 914, tracked: 340 });
    const { pointer } = await currentOf(new S3ObjectStore(s3.client, s3.bucket, 'from-s3'));
    expect(pointer.snapshot_id).toBe(summary.snapshot_id);

    const missing = await runCliCapturing(
      [
        'build',
        '--bucket',
        s3.bucket,
        '--prefix',
        'from-s3',
        '--nppes',
        `s3://${s3.bucket}/inputs/none.csv`,
        '--nucc',
        `s3://${s3.bucket}/inputs/nucc.csv`,
      ],
      s3.endpoint,
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`s3://${s3.bucket}/inputs/none.csv: no such object`);
  });
});
