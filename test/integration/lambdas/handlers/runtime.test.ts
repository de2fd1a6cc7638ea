/**
 * The runtime owns the request path's caches: two runtimes share none, and `caches.clear()` empties them without
 * changing a single response byte.
 */
import { type ApiTestEnv, startApiTestEnv } from '../../../helpers/api-test-env';

let env: ApiTestEnv;
beforeAll(async () => {
  env = await startApiTestEnv({ storage: 'folder', snapshot: 'edge' });
});
afterAll(async () => {
  await env?.close();
});

describe('the runtime caches', () => {
  it('answer a repeated page with the same bytes before and after caches.clear()', async () => {
    const headers = { 'x-api-key': env.keys.enterprise };
    const list = '/api/v1/providers?vertical=glp1&limit=5';
    const csv = '/api/v1/providers?vertical=glp1&limit=5&format=csv';
    const before = [await (await env.get(list, headers)).text(), await (await env.get(csv, headers)).text()];
    expect(JSON.parse(before[0] as string).data.length).toBeGreaterThan(0);
    env.runtime.caches.clear();
    const after = [await (await env.get(list, headers)).text(), await (await env.get(csv, headers)).text()];
    expect(after).toEqual(before);
  });

  it('are the views the use cases present rows through (the runtime deps)', () => {
    expect(env.runtime.deps.views).toBe(env.runtime.caches.views);
  });
});
