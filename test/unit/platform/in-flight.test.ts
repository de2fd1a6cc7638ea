import { InFlight } from '../../../platform/in-flight';

/** A promise and the functions that settle it, so a test decides when a load ends. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('InFlight', () => {
  it('starts one load for concurrent callers of the same key and gives each the same result', async () => {
    const loads = new InFlight<string, number>();
    const gate = deferred<number>();
    let starts = 0;
    const start = () => {
      starts += 1;
      return gate.promise;
    };
    const calls = [loads.run('a', start), loads.run('a', start), loads.run('a', start)];
    expect(starts).toBe(1);
    expect(loads.has('a')).toBe(true);
    expect(loads.size).toBe(1);
    gate.resolve(7);
    expect(await Promise.all(calls)).toEqual([7, 7, 7]);
    expect(loads.has('a')).toBe(false);
    expect(loads.size).toBe(0);
  });

  it('keeps different keys apart', async () => {
    const loads = new InFlight<string, string>();
    const [a, b] = await Promise.all([loads.run('a', async () => 'A'), loads.run('b', async () => 'B')]);
    expect([a, b]).toEqual(['A', 'B']);
  });

  it('does not remember a failure: the next call starts again', async () => {
    const loads = new InFlight<string, number>();
    await expect(loads.run('a', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(loads.has('a')).toBe(false);
    await expect(loads.run('a', async () => 1)).resolves.toBe(1);
  });

  it('settled() waits for every pending load, failed ones included, and never rejects', async () => {
    const loads = new InFlight<string, number>();
    const ok = deferred<number>();
    const bad = deferred<number>();
    const a = loads.run('a', () => ok.promise);
    const b = loads.run('b', () => bad.promise).catch(() => -1);
    let done = false;
    const settled = loads.settled().then(() => {
      done = true;
    });
    ok.resolve(1);
    await a;
    expect(done).toBe(false);
    bad.reject(new Error('down'));
    await settled;
    expect(done).toBe(true);
    expect(await b).toBe(-1);
    expect(loads.size).toBe(0);
  });

  it('settled() resolves at once when nothing is pending', async () => {
    await expect(new InFlight<string, number>().settled()).resolves.toBeUndefined();
  });
});
