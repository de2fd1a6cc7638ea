/**
 * The benchmark's routes, added to the local server's app when `PF_BENCH_CEILING=1` (tools/local/start.ts):
 * `GET /__bench/ceiling`, a fixed in-memory JSON answer that measures the HTTP ceiling of the server, and
 * `GET /__bench/memory`, the process's memory by kind (V8's heap, ArrayBuffers) for the benchmark's report. They run
 * behind the app's request log like every route; the product has neither.
 */
import type { Hono } from 'hono';
import { jsonResponse, NO_STORE } from '../../../lambdas/http/responses';

/** What `GET /__bench/memory` answers: bytes by kind, from `process.memoryUsage()`. */
export interface BenchMemory {
  rss: number;
  /** V8's heap, every space (new, old, code, large objects). */
  heap_total: number;
  heap_used: number;
  /** Memory of ArrayBuffers and Buffers (outside V8's heap: index bytes, caches, bodies). */
  array_buffers: number;
}

const CEILING_BODY = Buffer.from(JSON.stringify({ ok: true, data: [] }), 'utf8');

function benchMemory(): BenchMemory {
  const { rss, heapTotal, heapUsed, arrayBuffers } = process.memoryUsage();
  return { rss, heap_total: heapTotal, heap_used: heapUsed, array_buffers: arrayBuffers };
}

/**
 * Adds the benchmark's routes to `app` (an `extraRoutes` of lambdas/http/app.ts).
 * @example createApp(deps, { extraRoutes: addBenchRoutes })
 */
export function addBenchRoutes(app: Hono): void {
  app.get('/__bench/ceiling', () => jsonResponse(200, CEILING_BODY, { cacheControl: NO_STORE }));
  app.get('/__bench/memory', () => jsonResponse(200, benchMemory(), { cacheControl: NO_STORE }));
}
