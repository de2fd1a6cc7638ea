/** Starts a real S3 protocol server (s3rver) on a loopback port 0, with one bucket, for integration tests. */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { createS3Client } from '../../platform/s3-store';

export interface S3rverHandle {
  endpoint: string;
  bucket: string;
  client: S3Client;
  stop(): Promise<void>;
}

export async function startS3rver(bucket = 'provider-facts-test'): Promise<S3rverHandle> {
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = createS3Client({ endpoint });
  return {
    endpoint,
    bucket,
    client,
    async stop() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
