import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { makeNpi } from '../../../data-contracts/npi-check';
import { convertLegacyNpiBucket, gzippedNpiBucket } from '../../../etl/npi-out';
import { BufferSource } from '../../../platform/identity-index/byte-source';
import { NpiIndexReader } from '../../../platform/npi-index/reader';

const recordOf = (npi: string) =>
  JSON.stringify({ npi, status: 'deactivated', deactivation_date: '2026-01-01', oig_excluded: false });

describe('NPI bucket files', () => {
  const npis = [makeNpi('100000000'), makeNpi('100000007'), makeNpi('100000123')];

  it('gzips the bucket format', async () => {
    const reader = NpiIndexReader.open(new BufferSource(gunzipSync(await gzippedNpiBucket(npis.map(recordOf)))));
    expect(npis.map((n) => reader.find(n)?.npi)).toEqual(npis);
  });

  it('rewrites a bucket of the first layout (gzipped JSON lines) in the current format', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pf-npi-out-'));
    try {
      const legacy = path.join(dir, 'records.jsonl.gz');
      await writeFile(legacy, gzipSync(`${npis.map(recordOf).join('\n')}\n`));
      const out = path.join(dir, 'records.npi.gz');
      expect(await convertLegacyNpiBucket(legacy, out)).toBe(3);
      const reader = NpiIndexReader.open(new BufferSource(gunzipSync(await readFile(out))));
      for (const npi of npis) expect(reader.find(npi)).toEqual(JSON.parse(recordOf(npi)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
