import { RememberingMeter } from '../../../../lambdas/access/exhausted-keys';
import type { Meter, MeterResult } from '../../../../lambdas/core/ports';

/** A meter over one in-memory counter per key and month, counting the round trips it is asked for. */
function counterMeter(quota = 500) {
  const used = new Map<string, number>();
  const meter = {
    calls: 0,
    refunds: [] as { keyHash: string; count: number; month: string }[],
    used,
    async consume(keyHash: string, _plan: unknown, now: Date, count = 1): Promise<MeterResult> {
      meter.calls += 1;
      const id = `${keyHash}/${now.toISOString().slice(0, 7)}`;
      const current = used.get(id) ?? 0;
      if (current + count > quota) return { outcome: 'exceeded', used: current, quota, resetSeconds: 1 };
      used.set(id, current + count);
      return { outcome: 'counted', used: current + count, quota, resetSeconds: 1 };
    },
    async refund(keyHash: string, _plan: unknown, chargedAt: Date, count: number) {
      const month = chargedAt.toISOString().slice(0, 7);
      meter.refunds.push({ keyHash, count, month });
      const id = `${keyHash}/${month}`;
      used.set(id, (used.get(id) ?? 0) - count);
    },
  } satisfies Meter & Record<string, unknown>;
  return meter;
}

const NOW = new Date('2026-11-28T01:00:00Z');

describe('RememberingMeter', () => {
  it('answers a key it saw exhausted without asking again, until the month turns', async () => {
    const inner = counterMeter();
    inner.used.set('k/2026-11', 500);
    const meter = new RememberingMeter(inner);
    expect(meter.knownExhausted('k', 'free', NOW)).toBeNull();
    expect(await meter.consume('k', 'free', NOW)).toMatchObject({ outcome: 'exceeded', used: 500, quota: 500 });
    expect(inner.calls).toBe(1);
    for (let i = 0; i < 1_000; i += 1) {
      expect(await meter.consume('k', 'free', NOW)).toMatchObject({ outcome: 'exceeded', used: 500, quota: 500 });
    }
    expect(inner.calls).toBe(1);
    const known = meter.knownExhausted('k', 'free', NOW);
    expect(known).toMatchObject({ outcome: 'exceeded', used: 500, quota: 500 });
    // The reset is counted from the asking time: 71 hours from 01:00 on the 28th of a 30-day month.
    expect(known?.resetSeconds).toBe(71 * 3600);
    // December: a new counter decides.
    const december = new Date('2026-12-01T00:00:00Z');
    expect(meter.knownExhausted('k', 'free', december)).toBeNull();
    expect(await meter.consume('k', 'free', december)).toMatchObject({ outcome: 'counted', used: 1 });
    expect(inner.calls).toBe(2);
  });

  it('remembers the call that took the last one, so the next is refused without a round trip', async () => {
    const inner = counterMeter();
    inner.used.set('k/2026-11', 499);
    const meter = new RememberingMeter(inner);
    expect(await meter.consume('k', 'free', NOW)).toMatchObject({ outcome: 'counted', used: 500 });
    expect(meter.knownExhausted('k', 'free', NOW)).toMatchObject({ used: 500 });
    expect(await meter.consume('k', 'free', NOW)).toMatchObject({ outcome: 'exceeded' });
    expect(inner.calls).toBe(1);
  });

  it('does not remember a batch refused for asking more than is left: a smaller call may pass', async () => {
    const inner = counterMeter();
    inner.used.set('k/2026-11', 450);
    const meter = new RememberingMeter(inner);
    expect(await meter.consume('k', 'free', NOW, 100)).toMatchObject({ outcome: 'exceeded', used: 450 });
    expect(meter.knownExhausted('k', 'free', NOW)).toBeNull();
    expect(await meter.consume('k', 'free', NOW, 50)).toMatchObject({ outcome: 'counted', used: 500 });
  });

  it('asks again when the key changes plan (a new quota)', async () => {
    const inner = counterMeter();
    inner.used.set('k/2026-11', 500);
    const meter = new RememberingMeter(inner);
    await meter.consume('k', 'free', NOW);
    expect(meter.knownExhausted('k', 'free', NOW)).not.toBeNull();
    expect(meter.knownExhausted('k', 'builder', NOW)).toBeNull();
    expect(meter.knownExhausted('k', 'enterprise', NOW)).toBeNull();
  });

  it('forgets a key it gives calls back to, and passes the refund on with the charge time', async () => {
    const inner = counterMeter();
    inner.used.set('k/2026-11', 400);
    const meter = new RememberingMeter(inner);
    expect(await meter.consume('k', 'free', NOW, 100)).toMatchObject({ outcome: 'counted', used: 500 });
    expect(meter.knownExhausted('k', 'free', NOW)).not.toBeNull();
    await meter.refund('k', 'free', NOW, 100);
    expect(meter.knownExhausted('k', 'free', NOW)).toBeNull();
    expect(inner.refunds).toEqual([{ keyHash: 'k', count: 100, month: '2026-11' }]);
    expect(await meter.consume('k', 'free', NOW)).toMatchObject({ outcome: 'counted', used: 401 });
  });

  it('keeps at most maxKeys, the oldest forgotten first (it then costs one more round trip)', async () => {
    const inner = counterMeter();
    const meter = new RememberingMeter(inner, { maxKeys: 2 });
    for (const key of ['a', 'b', 'c']) {
      inner.used.set(`${key}/2026-11`, 500);
      await meter.consume(key, 'free', NOW);
    }
    expect(meter.size).toBe(2);
    expect(meter.knownExhausted('a', 'free', NOW)).toBeNull();
    expect(meter.knownExhausted('c', 'free', NOW)).not.toBeNull();
  });
});
