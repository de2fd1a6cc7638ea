/**
 * The posting lists and directory of an identity index (format.ts), built by counting, group by group, for the
 * writer (./writer.ts).
 */
import { U32Builder } from '../binary/builders';
import { ANY, DIRECTORY_ENTRY_BYTES, REP_CODE } from './format';

/** Directory keys within one `t`: s * 2^32 + c (exact in a double: s < 2^16). */
const keyOf = (s: number, c: number) => s * 0x100000000 + c;
const isCityKey = (key: number) => key >= 0x100000000 && key % 0x100000000 !== ANY;

/** A code's city list, waiting for its place in the clustered copy. */
interface PendingCityList {
  entry: number;
  t: number;
  key: number;
  rows: Uint32Array;
}

/**
 * Builds the posting lists and directory, group by group (one group per `t`, in ascending `t`). Each group's rows
 * arrive in NPI order; a stable counting pass per group keeps every list in that order.
 *
 * With `clustered` (format.ts, version 3), the codes' city lists (a state and a city) are not posting lists: they
 * are placed one after the other in (state, city, code) order ({@link cityOrigin}: the record copied to each place),
 * and their directory entries point at their place. A classification's city list is then a posting list of those
 * places, which lie together in its (state, city) block.
 */
export class ListBuilder {
  private readonly all = new U32Builder();
  private readonly entries = new U32Builder();
  private readonly pendingCity: PendingCityList[] = [];
  /** [first posting, count] of the class_rep city lists, whose postings become places once they are known. */
  private readonly repCity: [number, number][] = [];
  private origin: Uint32Array | null = null;

  constructor(
    private readonly stateOf: Uint32Array,
    private readonly cityOf: Uint32Array,
    private readonly clustered: boolean,
  ) {}

  addGroup(t: number, rows: Uint32Array, withAll: boolean): void {
    if (this.origin !== null) throw new Error('identity index: lists added after they were finished');
    const counts = new Map<number, number>();
    const bump = (key: number) => counts.set(key, (counts.get(key) ?? 0) + 1);
    const keysOf = (r: number, visit: (key: number) => void) => {
      const s = this.stateOf[r] as number;
      const c = this.cityOf[r] as number;
      if (withAll) visit(keyOf(ANY, ANY));
      if (c !== ANY) visit(keyOf(ANY, c));
      if (s !== ANY) {
        visit(keyOf(s, ANY));
        if (c !== ANY) visit(keyOf(s, c));
      }
    };
    for (const r of rows) keysOf(r, bump);
    const sorted = [...counts.keys()].sort((a, b) => a - b);
    const placed = (key: number) => this.clustered && t !== REP_CODE && isCityKey(key);
    // Placed lists are counted into a buffer of their own, then queued for their place (finish).
    /** Each list's next position, from its first. */
    const fill = new Map<number, number>();
    const placedLists: { entry: number; key: number; first: number; count: number }[] = [];
    let at = this.all.length;
    let localAt = 0;
    for (const key of sorted) {
      const count = counts.get(key) as number;
      const entry = this.entries.length / 5;
      let first: number;
      if (placed(key)) {
        first = localAt;
        localAt += count;
        placedLists.push({ entry, key, first, count });
      } else {
        first = at;
        at += count;
        if (this.clustered && isCityKey(key)) this.repCity.push([first, count]);
      }
      this.entries.push(t);
      this.entries.push(Math.floor(key / 0x100000000));
      this.entries.push(key % 0x100000000);
      this.entries.push(first);
      this.entries.push(count);
      fill.set(key, first);
    }
    this.all.extend(at - this.all.length);
    const target = this.all.array();
    const local = new Uint32Array(localAt);
    for (const r of rows) {
      keysOf(r, (key) => {
        const k = fill.get(key) as number;
        (placed(key) ? local : target)[k] = r;
        fill.set(key, k + 1);
      });
    }
    for (const { entry, key, first, count } of placedLists) {
      this.pendingCity.push({ entry, t, key, rows: local.subarray(first, first + count) });
    }
  }

  /**
   * Places the city lists (with `clustered`) and points their entries and the class_rep city postings at their
   * places. Call once, after the last group.
   */
  finish(recordCount: number): void {
    if (this.origin !== null) return;
    const lists = this.pendingCity.sort((a, b) => a.key - b.key || a.t - b.t);
    const origin = new Uint32Array(lists.reduce((n, list) => n + list.rows.length, 0));
    const placeOf = new Uint32Array(recordCount).fill(0xffffffff);
    const entries = this.entries.array();
    let at = 0;
    for (const list of lists) {
      entries[5 * list.entry + 3] = at;
      for (const r of list.rows) {
        origin[at] = r;
        placeOf[r] = at;
        at += 1;
      }
    }
    const postings = this.all.array();
    for (const [first, count] of this.repCity) {
      for (let k = first; k < first + count; k += 1) {
        const place = placeOf[postings[k] as number] as number;
        if (place === 0xffffffff) throw new Error('identity index: a class_rep city row has no place');
        postings[k] = place;
      }
    }
    this.pendingCity.length = 0;
    this.origin = origin;
  }

  postings(): Uint32Array {
    return this.all.array();
  }

  /** The record copied to each place of the clustered city lists (empty unless `clustered`); after finish. */
  cityOrigin(): Uint32Array {
    if (this.origin === null) throw new Error('identity index: lists not finished');
    return this.origin;
  }

  directory(): Buffer {
    const values = this.entries.array();
    if (values.length % 5 !== 0) throw new Error('identity index: bad directory');
    const out = Buffer.alloc((values.length / 5) * DIRECTORY_ENTRY_BYTES);
    for (let i = 0; i < values.length; i += 1) out.writeUInt32LE(values[i] as number, 4 * i);
    return out;
  }
}
