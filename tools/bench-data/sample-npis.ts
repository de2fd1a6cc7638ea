/**
 * A uniform sample of the NPIs of an NPPES file in CMS's form (every line starts with the quoted NPI), for the
 * national-size LEIE list (./generate-leie.ts), whose NPI-carrying rows take NPIs of the bench's NPPES file as real
 * ones do. The file is read in raw chunks and only the ten digits after each line start are decoded, so a 9,000,000
 * row file costs one sequential read and no per-line string.
 */
import { open } from 'node:fs/promises';
import type { Random } from '../demo/random';

const CHUNK_BYTES = 8 * 1024 * 1024;
const QUOTE = 0x22;
const NEWLINE = 0x0a;

/**
 * `count` distinct NPIs drawn uniformly from the data lines of `file` (reservoir sampling), in file order.
 * @example await sampleNppesNpis('/tmp/npidata.csv', 8_250, createRandom(3))
 */
export async function sampleNppesNpis(file: string, count: number, rng: Random): Promise<string[]> {
  const reservoir: { at: number; npi: string }[] = [];
  let seen = 0;
  let header = true;
  const take = (line: Buffer, start: number) => {
    if (header) {
      header = false;
      return;
    }
    if (line[start] !== QUOTE) return;
    const npi = line.toString('latin1', start + 1, start + 11);
    if (!/^[0-9]{10}$/.test(npi)) return;
    seen += 1;
    if (reservoir.length < count) reservoir.push({ at: seen, npi });
    else {
      const j = Math.floor(rng.next() * seen);
      if (j < count) reservoir[j] = { at: seen, npi };
    }
  };
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    // The unfinished last line of a chunk is carried whole into the next (a line is about a kilobyte).
    let carry = Buffer.alloc(0);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const chunk =
        carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, bytesRead)]) : buffer.subarray(0, bytesRead);
      let lineStart = 0;
      for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, lineStart)) {
        take(chunk, lineStart);
        lineStart = end + 1;
      }
      carry = Buffer.from(chunk.subarray(lineStart));
    }
    if (carry.length > 0) take(carry, 0);
  } finally {
    await handle.close();
  }
  return reservoir.sort((a, b) => a.at - b.at).map((r) => r.npi);
}
