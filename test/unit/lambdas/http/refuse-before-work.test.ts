/**
 * The order of a keyed call's checks (lambdas/core/charge-call.ts): the edge, the key, a quota known to be used up,
 * the parameters, the data, the charge; batches are charged before their query and given back when it fails.
 * In-process over the core's fakes, with the real RememberingMeter in front of a scripted counter.
 */
import { RememberingMeter } from '../../../../lambdas/access/exhausted-keys';
import type { CoreDeps, Meter, MeterResult } from '../../../../lambdas/core/ports';
import { createApp } from '../../../../lambdas/http/app';
import type { ProviderData } from '../../../../lambdas/query/types';
import { createJsonLogger } from '../../../../platform/logger';
import { FAKE_KEYS, fakeDeps } from '../../../helpers/api-fake-deps';

const FREE = { 'x-api-key': 'free' };
const DEVELOPER = { 'x-api-key': 'developer' };
const NPIS = ['1003000126', '1003000134', '1003000142'];

/** One counter per key (this month), with a quota per plan; records every charge and refund. */
function scriptedMeter(used: Record<string, number>) {
  const quotas: Record<string, number> = { hf: 500, hb: 5_000, hd: 25_000 };
  const log: string[] = [];
  const meter: Meter = {
    async consume(keyHash, _plan, _now, count = 1): Promise<MeterResult> {
      log.push(`consume ${keyHash} ${count}`);
      const quota = quotas[keyHash];
      if (quota === undefined) return { outcome: 'unmetered' };
      const current = used[keyHash] ?? 0;
      if (current + count > quota) return { outcome: 'exceeded', used: current, quota, resetSeconds: 100 };
      used[keyHash] = current + count;
      return { outcome: 'counted', used: current + count, quota, resetSeconds: 100 };
    },
    async refund(keyHash, _plan, _chargedAt, count) {
      log.push(`refund ${keyHash} ${count}`);
      used[keyHash] = (used[keyHash] ?? 0) - count;
    },
  };
  return { meter, log, used };
}

/** Fake deps whose data access is counted: how often a request touched a snapshot, and which NPIs it looked up. */
function countedDeps(meter: Meter, over: Partial<ProviderData> = {}) {
  const base = fakeDeps({ keys: FAKE_KEYS });
  const counts = { snapshots: 0, keyLookups: 0, lookedUp: [] as string[] };
  const deps: CoreDeps = {
    ...base,
    meter: new RememberingMeter(meter),
    keys: {
      findByKey: (k) => {
        counts.keyLookups += 1;
        return base.keys.findByKey(k);
      },
    },
    snapshots: {
      withSnapshot: (work) =>
        base.snapshots.withSnapshot((data) => {
          counts.snapshots += 1;
          return work({
            ...data,
            findNpis: async (npis) => {
              counts.lookedUp.push(...npis);
              return npis.map(() => null);
            },
            ...over,
          });
        }),
    },
  };
  return { deps, counts };
}

describe('refusing an exhausted key before any work', () => {
  it('does the work once, then refuses the key with 429 before parameters, snapshot or counter', async () => {
    const script = scriptedMeter({ hf: 500 });
    const { deps, counts } = countedDeps(script.meter);
    const app = createApp(deps);
    const first = await app.request('/api/v1/providers?taxonomy=207Q00000X&state=TX', { headers: FREE });
    expect(first.status).toBe(429);
    // A single call is charged after its query: the first refusal an instance sees still costs the query, once.
    expect(counts.snapshots).toBe(1);
    for (const path of [
      `/api/v1/npi/${NPIS[0]}`,
      '/api/v1/providers?taxonomy=207Q00000X&state=TX',
      `/api/v1/npi?numbers=${NPIS.join(',')}`,
      '/api/v1/changes?since=2026-01-01',
      // Quota comes before parameters: a malformed call of an exhausted key is a 429 too.
      '/api/v1/providers?vertical=nope&bogus=1',
    ]) {
      const res = await app.request(path, { headers: FREE });
      expect(res.status).toBe(429);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ code: 'quota_exceeded', plan: 'free', usage: { used: 500, quota: 500 } });
      expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    expect(counts.snapshots).toBe(1);
    expect(counts.lookedUp).toEqual([]);
    expect(script.log).toEqual(['consume hf 1']);
  });

  it('still authenticates first: an unknown key is 401, whatever the quota of others', async () => {
    const script = scriptedMeter({ hf: 500 });
    const { deps } = countedDeps(script.meter);
    const app = createApp(deps);
    await app.request(`/api/v1/npi/${NPIS[0]}`, { headers: FREE });
    expect((await app.request(`/api/v1/npi/${NPIS[0]}`, { headers: { 'x-api-key': 'nope' } })).status).toBe(401);
    expect((await app.request(`/api/v1/npi/${NPIS[0]}`)).status).toBe(401);
  });
});

describe('charging an NPI batch before its lookup', () => {
  it('refuses a batch larger than what is left with 429 and reads no bucket', async () => {
    const script = scriptedMeter({ hd: 24_999 });
    const { deps, counts } = countedDeps(script.meter);
    const res = await createApp(deps).request(`/api/v1/npi?numbers=${NPIS.join(',')}`, { headers: DEVELOPER });
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ code: 'quota_exceeded', usage: { used: 24_999, quota: 25_000 } });
    expect(counts.lookedUp).toEqual([]);
    expect(script.log).toEqual(['consume hd 3']);
  });

  it('gives the calls back when the lookup fails, and the call is not counted', async () => {
    const script = scriptedMeter({ hd: 10 });
    const { deps } = countedDeps(script.meter, {
      findNpis: async () => {
        throw new Error('bucket unreadable');
      },
    });
    const res = await createApp(deps).request(`/api/v1/npi?numbers=${NPIS.join(',')}`, { headers: DEVELOPER });
    expect(res.status).toBe(500);
    expect(script.log).toEqual(['consume hd 3', 'refund hd 3']);
    expect(script.used.hd).toBe(10);
  });

  it('charges a roster as many calls as the same NPIs through /npi?numbers=, however it is paged', async () => {
    const script = scriptedMeter({ hd: 0 });
    const { deps } = countedDeps(script.meter);
    const app = createApp(deps);
    const numbers = NPIS.join(',');
    const batch = await app.request(`/api/v1/npi?numbers=${numbers}`, { headers: DEVELOPER });
    expect(batch.status).toBe(200);
    expect(script.used.hd).toBe(3);
    // The fake roster answers no row: every page past the first is an offset past the end (400), given back.
    const roster = await app.request(`/api/v1/providers?npi=${numbers}&limit=2`, { headers: DEVELOPER });
    expect(roster.status).toBe(200);
    const beyond = await app.request(`/api/v1/providers?npi=${numbers}&limit=2&offset=2`, { headers: DEVELOPER });
    expect(beyond.status).toBe(400);
    expect(script.log).toEqual(['consume hd 3', 'consume hd 2', 'consume hd 1', 'refund hd 1']);
    expect(script.used.hd).toBe(3 + 2);
  });
});

describe('the CDN origin check', () => {
  const SECRET = 'a-deployment-secret-of-32-chars!';

  it('refuses a call without the origin header with 403 cdn_required before any other work, and logs it', async () => {
    const lines: string[] = [];
    const script = scriptedMeter({});
    const { deps, counts } = countedDeps(script.meter);
    const app = createApp(
      { ...deps, logger: createJsonLogger({ write: (l) => lines.push(l) }) },
      { originSecret: SECRET },
    );
    for (const header of [undefined, '', 'wrong', SECRET.toUpperCase(), SECRET.slice(0, -1)]) {
      const headers: Record<string, string> = { ...DEVELOPER };
      if (header !== undefined) headers['x-pf-origin-verify'] = header;
      const res = await app.request(`/api/v1/npi/${NPIS[0]}`, { headers });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'cdn_required' });
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
    // A preflight and a public route are refused too: nothing is served past the edge.
    const preflight = await app.request('/api/v1/providers', {
      method: 'OPTIONS',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(403);
    expect((await app.request('/api/v1/openapi.json')).status).toBe(403);
    expect(counts.keyLookups + counts.snapshots).toBe(0);
    expect(script.log).toEqual([]);
    const refusals = lines.map((l) => JSON.parse(l)).filter((l) => l.message === 'edge_refusal');
    expect(refusals).toHaveLength(7);
    expect(refusals[0]).toMatchObject({ level: 'warn', metric: 'EdgeRefusal', reason: 'cdn_required' });
  });

  it('serves a call with the header as usual, and checks nothing when no secret is set', async () => {
    const script = scriptedMeter({});
    const { deps } = countedDeps(script.meter);
    const guarded = createApp(deps, { originSecret: SECRET });
    const res = await guarded.request(`/api/v1/npi?numbers=${NPIS[0]}`, {
      headers: { ...DEVELOPER, 'x-pf-origin-verify': SECRET },
    });
    expect(res.status).toBe(200);
    expect((await createApp(deps).request(`/api/v1/npi?numbers=${NPIS[0]}`, { headers: DEVELOPER })).status).toBe(200);
  });
});
