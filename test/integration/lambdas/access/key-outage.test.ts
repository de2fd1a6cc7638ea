/**
 * A keys-table outage, end to end: the real runtime (KeyStore, CachedKeyLookup, DynamoMeter) over dynalite, whose
 * server is stopped mid-run and restarted. The runtime clock (`advanceClock`) moves the key cache past its TTL and
 * its stale bound without waiting.
 */
import { type ApiTestEnv, startApiTestEnv } from '../../../helpers/api-test-env';

const BASE = '/api/v1';
const LIST = `${BASE}/providers?vertical=glp1&limit=1`;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('a keys-table outage', () => {
  let env: ApiTestEnv;
  beforeAll(async () => {
    env = await startApiTestEnv({ storage: 'folder', keyCacheSeconds: 5, persistTables: true });
  }, 180_000);
  afterAll(async () => {
    await env?.close();
  });

  it('keeps cached keys working, answers unknown keys 503 with Retry-After, recovers, and sees a revocation', async () => {
    const used = env.keys.developer;
    const revokable = (await env.keyStore.create({ plan: 'developer' })).key;
    const neverSeen = (await env.keyStore.create({ plan: 'developer' })).key;
    expect((await env.get(LIST, bearer(used))).status).toBe(200);
    expect((await env.get(LIST, bearer(revokable))).status).toBe(200);

    await env.dynalite.stop();

    // Past the 5 s TTL: a key this process has seen valid keeps authenticating (served, metering fails open).
    env.advanceClock(6_000);
    const stale = await env.get(LIST, bearer(used));
    expect(stale.status).toBe(200);
    expect(stale.headers.get('x-ratelimit-limit')).toBeNull();
    env.advanceClock(4 * 60_000);
    expect((await env.get(`${BASE}/npi/1003633876`, bearer(used))).status).toBe(200);

    // A key never seen: a clear, retryable answer.
    const refused = await env.get(LIST, bearer(neverSeen));
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'service_unavailable' });

    // Past the stale bound (the default 300 s after the last good read), a cached key is no longer vouched for either:
    // the worst case of a revocation during an outage.
    env.advanceClock(60_000);
    expect((await env.get(LIST, bearer(used))).status).toBe(503);

    await env.dynalite.restart();
    await env.keyStore.revoke(revokable);
    env.advanceClock(1_000);
    expect((await env.get(LIST, bearer(used))).status).toBe(200);
    expect((await env.get(LIST, bearer(neverSeen))).status).toBe(200);
    // The revocation is seen once the table answers, within the TTL.
    env.advanceClock(5_000);
    const revoked = await env.get(LIST, bearer(revokable));
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toMatchObject({ code: 'invalid_key' });

    const lines = env.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    const outage = lines.filter((line) => line.message === 'keys_table_unavailable');
    expect(outage.map((line) => line.served)).toEqual(expect.arrayContaining(['stale', 'refused']));
    expect(outage.every((line) => line.metric === 'KeysTableUnavailable' && line.level === 'warn')).toBe(true);
    expect(lines.some((line) => line.metric === 'MeteringFailure')).toBe(true);
    const all = env.logs.join('\n');
    for (const key of [used, revokable, neverSeen]) expect(all).not.toContain(key);
  }, 60_000);
});
