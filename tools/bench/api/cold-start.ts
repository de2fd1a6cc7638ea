/** Cold-start timings of the bench's server (../api-bench.ts): the first 200 after a spawn, and a cold identity query. */
import { rm } from 'node:fs/promises';
import http from 'node:http';
import { peakRssBytes, type RunningServer, type ServerOptions, startServer } from './bench-server';
import type { HotPartition } from './bench-snapshot';
import { request } from './http-load';
import type { ColdIdentity, ColdNpi } from './report';

/** Polls `urlPath` until it answers 200; returns the milliseconds since `since`. */
export async function firstOk(
  agent: http.Agent,
  port: number,
  urlPath: string,
  key: string,
  since: number,
): Promise<number> {
  for (;;) {
    const res = await request(agent, port, urlPath, key).catch(() => null);
    if (res?.status === 200) return performance.now() - since;
    if (performance.now() - since > 120_000) throw new Error(`${urlPath} did not answer 200 within 120 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * A fresh server process with an empty cache folder: once it listens, the wall time of its first identity query
 * of the largest partition (by its classification name), and of a second query of it.
 */
export async function measureColdIdentity(
  options: ServerOptions,
  cacheDir: string,
  key: string,
  hot: HotPartition,
): Promise<ColdIdentity> {
  await rm(cacheDir, { recursive: true, force: true });
  let server: RunningServer | null = null;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    server = await startServer(options);
    const first = `/api/v1/providers?taxonomy=${encodeURIComponent(hot.classification)}&limit=50`;
    let t = performance.now();
    const res = await request(agent, server.port, first, key);
    const firstMs = performance.now() - t;
    t = performance.now();
    await request(agent, server.port, `${first}&offset=50`, key);
    const secondMs = performance.now() - t;
    return {
      path: first,
      partition: hot.classificationKey,
      partitionRows: hot.partitionRows,
      firstMs,
      secondMs,
      status: res.status,
      peakRss: await peakRssBytes(server.child.pid),
    };
  } finally {
    agent.destroy();
    await server?.stop();
  }
}

/** A fresh server process with an empty cache folder: once it listens, its first NPI lookup, then a second one. */
export async function measureColdNpi(
  options: ServerOptions,
  cacheDir: string,
  key: string,
  npi: string,
): Promise<ColdNpi> {
  await rm(cacheDir, { recursive: true, force: true });
  let server: RunningServer | null = null;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    server = await startServer(options);
    const first = `/api/v1/npi/${npi}`;
    let t = performance.now();
    const res = await request(agent, server.port, first, key);
    const firstMs = performance.now() - t;
    t = performance.now();
    await request(agent, server.port, first, key);
    const secondMs = performance.now() - t;
    return { path: first, firstMs, secondMs, status: res.status };
  } finally {
    agent.destroy();
    await server?.stop();
  }
}
