import { gunzipSync } from 'node:zlib';
import { makeNpi } from '../../../data-contracts/npi-check';
import { gzippedNpiBucket } from '../../../etl/npi-out';
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
});
