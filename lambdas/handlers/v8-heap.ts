/**
 * V8's heap growing factor, set once per process by the entry points (the Lambda handler, the local server).
 *
 * The memory plan gives V8 an old-generation limit (`--max-old-space-size`, data-contracts/memory-budget.ts), and
 * V8 ties its heap growing factor to that limit: below about 1 GB it grows the heap by 1.3 to 2 times the live size
 * between full collections, and under this API's allocation rate that meant many times more full collections and
 * about half the throughput (docs/performance.md). A fixed factor of 2 keeps the bounded heap and collects about as
 * rarely as an unbounded one.
 *
 * The flag cannot be passed in NODE_OPTIONS (V8 flags there are allow-listed); V8 reads it whenever it computes the
 * next heap limit, so setting it at start takes effect. https://nodejs.org/api/v8.html#v8setflagsfromstringflags
 */
import { setFlagsFromString } from 'node:v8';

/** The heap grows to twice its live size between full collections. */
export const HEAP_GROWING_PERCENT = 100;

export function configureV8Heap(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
