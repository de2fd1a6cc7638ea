/**
 * The posting lists and directory of an identity index (format.ts), built by counting, group by group, for the
 * writer (./writer.ts).
 */
import { U32Builder } from './builders';
import { ANY, DIRECTORY_ENTRY_BYTES } from './format';

/** Directory keys within one `t`: s * 2^32 + c (exact in a double: s < 2^16). */
const keyOf = (s: number, c: number) => s * 0x100000000 + c;

/**
 * Builds the posting lists and directory, group by group (one group per `t`, in ascending `t`). Each group's rows
 * arrive in NPI order; a stable counting pass per group keeps every list in that order.
 */
export class ListBuilder {
  private readonly all = new U32Builder();
  private readonly entries = new U32Builder();

  constructor(
    private readonly stateOf: Uint32Array,
    private readonly cityOf: Uint32Array,
  ) {}

  addGroup(t: number, rows: Uint32Array, withAll: boolean): void {
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
    const start = new Map<number, number>();
    let at = this.all.length;
    for (const key of sorted) {
      const count = counts.get(key) as number;
      const s = Math.floor(key / 0x100000000);
      const c = key % 0x100000000;
      this.entries.push(t);
      this.entries.push(s);
      this.entries.push(c);
      this.entries.push(at);
      this.entries.push(count);
      start.set(key, at);
      at += count;
    }
    const base = this.all.length;
    const total = at - base;
    this.all.extend(total);
    const target = this.all.array();
    const fill = new Map(start);
    for (const r of rows) {
      keysOf(r, (key) => {
        const k = fill.get(key) as number;
        target[k] = r;
        fill.set(key, k + 1);
      });
    }
    if (at !== base + total) throw new Error('identity index: posting count mismatch');
  }

  postings(): Uint32Array {
    return this.all.array();
  }

  directory(): Buffer {
    const values = this.entries.array();
    if (values.length % 5 !== 0) throw new Error('identity index: bad directory');
    const out = Buffer.alloc((values.length / 5) * DIRECTORY_ENTRY_BYTES);
    for (let i = 0; i < values.length; i += 1) out.writeUInt32LE(values[i] as number, 4 * i);
    return out;
  }
}
