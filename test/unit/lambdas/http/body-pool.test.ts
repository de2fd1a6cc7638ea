import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { BodyPool, leaseUntilClosed } from '../../../../lambdas/http/body-pool';

describe('BodyPool', () => {
  it('lends one block per lease, reuses it after release, and never lends a block twice at once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.record({ take: fc.integer({ min: 0, max: 3000 }) }), fc.record({ give: fc.nat(40) })), {
          maxLength: 120,
        }),
        (steps) => {
          const pool = new BodyPool(2048, 3);
          const out: { lease: ReturnType<BodyPool['lease']>; buffer: Buffer; mark: number }[] = [];
          let mark = 0;
          for (const step of steps) {
            if ('take' in step) {
              const lease = pool.lease();
              const buffer = lease.allocate(step.take);
              // A whole pooled block (a writer may grow into it) when the body fits one, else exactly what was asked.
              expect(buffer.length).toBe(Math.max(2048, step.take));
              mark = (mark + 1) % 256;
              buffer.fill(mark);
              out.push({ lease, buffer, mark });
            } else if (out.length > 0) {
              const [gone] = out.splice(step.give % out.length, 1);
              gone?.lease.release();
              gone?.lease.release(); // idempotent
            }
            // Every lent buffer still holds what its holder wrote: no other lease wrote into it.
            for (const held of out) expect(held.buffer.every((b) => b === held.mark)).toBe(true);
            expect(pool.freeBlocks).toBeLessThanOrEqual(3);
          }
        },
      ),
    );
  });

  it('lends a whole block, and gives a second allocation of a lease, and one larger than a block, memory of its own', () => {
    const pool = new BodyPool(1024, 4);
    const lease = pool.lease();
    const first = lease.allocate(1000);
    expect(first.length).toBe(1024);
    const second = lease.allocate(100);
    expect(second.length).toBe(100);
    expect(second.buffer).not.toBe(first.buffer);
    const big = pool.lease().allocate(4096);
    expect(big.length).toBe(4096);
    lease.release();
    expect(pool.freeBlocks).toBe(1);
    // The released block is lent again.
    expect(pool.lease().allocate(10).buffer).toBe(first.buffer);
  });
});

describe('leaseUntilClosed', () => {
  it('keeps the block lent while a real node response is still being written, and gives it back once it is done', async () => {
    const pool = new BodyPool(64 * 1024, 4);
    let finishWrite: () => void = () => undefined;
    const lentWhileOpen: number[] = [];
    const server = createServer((_req, res) => {
      const lease = leaseUntilClosed(pool, res);
      const body = lease.allocate(60_000).subarray(0, 60_000).fill(0x61);
      res.writeHead(200, { 'Content-Length': String(body.length * 2) });
      res.write(body);
      lentWhileOpen.push(pool.freeBlocks);
      // The rest later: the response stays open meanwhile.
      finishWrite = () => res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const received = new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: '/' }, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on('end', () => resolve(bytes));
        })
          .on('error', reject)
          .end();
      });
      while (lentWhileOpen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(pool.freeBlocks).toBe(0);
      finishWrite();
      expect(await received).toBe(120_000);
      for (let i = 0; i < 100 && pool.freeBlocks === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(lentWhileOpen).toEqual([0]);
      expect(pool.freeBlocks).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
