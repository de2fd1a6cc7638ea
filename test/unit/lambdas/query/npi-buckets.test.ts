import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { makeNpi } from '../../../../data-contracts/npi-check';
import { findLine, indexLines, MAX_NPI_BUCKET_LOADS, NpiBuckets } from '../../../../lambdas/query/npi-buckets';

const lineOf = (npi: string) =>
  JSON.stringify({
    npi,
    status: 'deactivated',
    deactivation_date: '2026-01-01',
    oig_excluded: false,
    oig_type: null,
    oig_date: null,
    oig_checked_at: null,
  });

describe('NPI bucket search', () => {
  it('finds every NPI of a sorted bucket and no other', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 100_000_000, max: 299_999_999 }), { maxLength: 60 }), (bodies) => {
        const npis = bodies.map((b) => makeNpi(String(b))).sort();
        const bucket = indexLines(Buffer.from(npis.map((n) => `${lineOf(n)}\n`).join('')));
        for (const npi of npis) expect(findLine(bucket, npi)?.npi).toBe(npi);
        const absent = makeNpi('300000000');
        expect(findLine(bucket, absent)).toBeNull();
      }),
    );
  });

  it('holds buckets within its byte budget, oldest out first', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pf-npi-'));
    try {
      const files: string[] = [];
      for (const body of ['100000000', '200000000']) {
        const file = path.join(dir, `${body}.gz`);
        await writeFile(file, gzipSync(`${lineOf(makeNpi(body))}\n`));
        files.push(file);
      }
      const oneBucket = Buffer.byteLength(`${lineOf(makeNpi('100000000'))}\n`) + 8;
      const buckets = new NpiBuckets(oneBucket);
      expect((await buckets.find('a', async () => files[0] as string, makeNpi('100000000')))?.status).toBe(
        'deactivated',
      );
      expect(buckets.heldBytes).toBe(oneBucket);
      expect(await buckets.find('b', async () => files[1] as string, makeNpi('100000000'))).toBeNull();
      expect(buckets.heldBytes).toBe(oneBucket);
      buckets.forget('b');
      expect(buckets.heldBytes).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it(`unzips at most ${MAX_NPI_BUCKET_LOADS} buckets at once, and every lookup still answers`, async () => {
    let running = 0;
    let most = 0;
    const read = async (file: string) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return gzipSync(`${lineOf(makeNpi(file))}\n`);
    };
    const buckets = new NpiBuckets(1024 * 1024, read);
    const bodies = Array.from({ length: 30 }, (_, i) => String(100000000 + i * 1000));
    const found = await Promise.all(bodies.map((body) => buckets.find(body, async () => body, makeNpi(body))));
    expect(found.map((line) => line?.npi)).toEqual(bodies.map((body) => makeNpi(body)));
    expect(most).toBe(MAX_NPI_BUCKET_LOADS);
    expect(running).toBe(0);
  });
});
