/**
 * Build inputs given as `s3://bucket/key` URIs (the national NPPES task reads its inputs from the data bucket's
 * `inputs/` prefix): each is downloaded once into the run's work folder before the build, through the same S3
 * client as the store. A feed given as `s3://bucket/prefix/` is the folder holding providers.csv and
 * observations.csv.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { S3ObjectStore } from '../../platform/s3-store';
import type { BuildInputs } from '../build';
import { EtlInputError } from '../errors';
import { FEED_FILES } from '../sources/feed';

const S3_URI = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/(.+)$/;

export function isS3Uri(value: string): boolean {
  return value.startsWith('s3://');
}

function parseS3Uri(uri: string): { bucket: string; key: string } {
  const match = S3_URI.exec(uri);
  if (!match) throw new EtlInputError(uri, 'not an s3://bucket/key URI');
  return { bucket: match[1] as string, key: match[2] as string };
}

/** True when any input of the build is an S3 URI. */
export function hasS3Inputs(inputs: BuildInputs): boolean {
  return [...inputs.nppes, inputs.nucc, ...inputs.leie, ...inputs.fda, ...inputs.feeds].some(isS3Uri);
}

/**
 * Downloads every S3 input into a fresh folder under `workDir` and returns the inputs with local paths, plus a
 * cleanup that removes the folder. Local paths pass through unchanged.
 */
export async function stageS3Inputs(
  inputs: BuildInputs,
  deps: { client: S3Client; workDir: string },
): Promise<{ inputs: BuildInputs; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(deps.workDir, 'inputs-'));
  let n = 0;
  const fetchFile = async (uri: string, name: string): Promise<string> => {
    const { bucket, key } = parseS3Uri(uri);
    n += 1;
    // The file keeps its name in a folder of its own: an LEIE file's as-of may be in its name, and the manifest's
    // leie_files names it.
    const file = path.join(dir, String(n), name);
    const got = await new S3ObjectStore(deps.client, bucket).download(key, file);
    if (!got) throw new EtlInputError(uri, 'no such object');
    return file;
  };
  const stage = (p: string) => (isS3Uri(p) ? fetchFile(p, path.posix.basename(p)) : Promise.resolve(p));
  const stageFeed = async (p: string): Promise<string> => {
    if (!isS3Uri(p)) return p;
    const folder = p.endsWith('/') ? p : `${p}/`;
    n += 1;
    const feedDir = path.join(dir, `${n}-feed`);
    for (const name of Object.values(FEED_FILES)) {
      const { bucket, key } = parseS3Uri(`${folder}${name}`);
      if (!(await new S3ObjectStore(deps.client, bucket).download(key, path.join(feedDir, name)))) {
        throw new EtlInputError(`${folder}${name}`, 'no such object');
      }
    }
    return feedDir;
  };
  try {
    const staged: BuildInputs = {
      ...inputs,
      nppes: await Promise.all(inputs.nppes.map(stage)),
      nucc: inputs.nucc === '' ? '' : await stage(inputs.nucc),
      leie: await Promise.all(inputs.leie.map(stage)),
      fda: await Promise.all(inputs.fda.map(stage)),
      feeds: await Promise.all(inputs.feeds.map(stageFeed)),
    };
    return { inputs: staged, cleanup: () => rm(dir, { recursive: true, force: true }) };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
