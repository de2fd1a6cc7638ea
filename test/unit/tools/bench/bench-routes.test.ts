import { createApp } from '../../../../lambdas/http/app';
import { addBenchRoutes } from '../../../../tools/bench/api/bench-routes';
import { fakeDeps } from '../../../helpers/api-fake-deps';

describe("the benchmark's routes", () => {
  it('exist only when the local server adds them', async () => {
    for (const route of ['/__bench/ceiling', '/__bench/memory']) {
      expect((await createApp(fakeDeps()).request(route)).status).toBe(404);
      expect((await createApp(fakeDeps(), { extraRoutes: addBenchRoutes }).request(route)).status).toBe(200);
    }
  });

  it('run behind the request log: request id and CORS headers like every route', async () => {
    const res = await createApp(fakeDeps(), { extraRoutes: addBenchRoutes }).request('/__bench/ceiling');
    expect(await res.json()).toEqual({ ok: true, data: [] });
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it("answer the memory route with this process's memory by kind", async () => {
    const res = await createApp(fakeDeps(), { extraRoutes: addBenchRoutes }).request('/__bench/memory');
    const memory = (await res.json()) as Record<string, number>;
    expect(Object.keys(memory).sort()).toEqual(['array_buffers', 'heap_total', 'heap_used', 'rss']);
    expect(memory.heap_used).toBeGreaterThan(0);
    expect(memory.heap_used).toBeLessThanOrEqual(memory.heap_total as number);
    expect(memory.heap_total).toBeLessThan(memory.rss as number);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
