/**
 * Reading a stored NPI bucket of layout 3 (gzipped, `records.npi.gz`) for the arena (./npi-arena.ts): its unzipped
 * size from the gzip trailer, and its bytes streamed in small chunks, off the main thread. A bucket stored as it is
 * (layout 4) is streamed as it is.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

/** Bytes of one unzipped chunk on its way to the arena. */
export const UNZIP_CHUNK_BYTES = 64 * 1024;

/** Unzips a gzipped bucket file, handing its bytes to `sink` in order, one chunk at a time (awaited). */
export type UnzipBucket = (gz: string, sink: (chunk: Buffer) => Promise<void>) => Promise<void>;

/**
 * The default {@link UnzipBucket}: streamed through gunzip off the main thread; a bucket stored as it is (layout 4,
 * placed in the arena by a local server) is streamed as it is.
 */
export const unzipBucket: UnzipBucket = async (gz, sink) => {
  const copy = async (chunks: AsyncIterable<unknown>) => {
    for await (const chunk of chunks) await sink(chunk as Buffer);
  };
  if (await isGzipped(gz)) {
    await pipeline(createReadStream(gz), createGunzip({ chunkSize: UNZIP_CHUNK_BYTES }), copy);
  } else {
    await pipeline(createReadStream(gz, { highWaterMark: UNZIP_CHUNK_BYTES }), copy);
  }
};

/** True when `file` starts with gzip's magic bytes. */
async function isGzipped(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * A bucket's unzipped size, from its gzip trailer (ISIZE: the size modulo 2^32; a bucket is far smaller), so that
 * its place in the arena is reserved before it is streamed there. Checked against the bytes streamed.
 */
export async function unzippedSize(gz: string): Promise<number> {
  if (!(await isGzipped(gz))) return (await stat(gz)).size;
  const handle = await open(gz, 'r');
  try {
    const { size } = await handle.stat();
    if (size < 18) throw new Error('not a gzip file');
    const trailer = Buffer.alloc(4);
    await handle.read(trailer, 0, 4, size - 4);
    return trailer.readUInt32LE(0);
  } finally {
    await handle.close();
  }
}
