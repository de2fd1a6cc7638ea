/**
 * Concurrent callers asking for the same key share one promise until it settles; a failure is not remembered, so
 * the next call tries again (datasette `utils/inflight.py`).
 *
 * @example
 * const loads = new InFlight<string, Buffer>();
 * const bytes = await loads.run(key, () => readFile(key)); // one read however many callers wait
 */
export class InFlight<K, V> {
  private readonly pending = new Map<K, Promise<V>>();

  run(key: K, start: () => Promise<V>): Promise<V> {
    let promise = this.pending.get(key);
    if (promise === undefined) {
      promise = start().finally(() => this.pending.delete(key));
      this.pending.set(key, promise);
    }
    return promise;
  }

  /**
   * Resolves once every call pending now has settled, whatever its outcome (never rejects): for a `close()` that
   * must not race a load still running.
   */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending.values()]);
  }

  has(key: K): boolean {
    return this.pending.has(key);
  }

  get size(): number {
    return this.pending.size;
  }
}
