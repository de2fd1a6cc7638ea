/**
 * A page's variable-length values (names) read from an index's heap: in one read when they lie within `limit`
 * bytes of each other (a page's names usually do), else one read each. Used by the identity index's pages
 * (platform/identity-index/page.ts) and the search index's (platform/search-index/page.ts).
 *
 * @example
 * const names = new HeapValues(starts, lengths, namesSectionOffset, 256 * 1024, (o, l) => source.slice(o, l));
 * names.buffer(i).toString('utf8', names.offset(i), names.offset(i) + lengths[i]);
 */
const EMPTY = Buffer.alloc(0);

export class HeapValues {
  private readonly span: Buffer | null;
  private readonly buffers: Buffer[] | null;
  private readonly at: Uint32Array;

  /** Value `i` is `lengths[i]` bytes at `base + starts[i]`; `read` reads bytes of the index. */
  constructor(
    starts: Uint32Array,
    readonly lengths: Uint32Array,
    base: number,
    limit: number,
    read: (offset: number, length: number) => Buffer,
    /** Told every range before they are read one by one (a source that fetches them does so in one round). */
    need?: (ranges: (readonly [number, number])[]) => void,
  ) {
    const n = starts.length;
    let min = Number.POSITIVE_INFINITY;
    let max = 0;
    for (let i = 0; i < n; i += 1) {
      const length = lengths[i] as number;
      if (length === 0) continue;
      const start = starts[i] as number;
      if (start < min) min = start;
      if (start + length > max) max = start + length;
    }
    this.at = new Uint32Array(n);
    if (max > min && max - min <= limit) {
      this.span = read(base + min, max - min);
      this.buffers = null;
      for (let i = 0; i < n; i += 1) this.at[i] = lengths[i] === 0 ? 0 : (starts[i] as number) - min;
    } else {
      if (need !== undefined) {
        const ranges: (readonly [number, number])[] = [];
        for (let i = 0; i < n; i += 1) {
          if (lengths[i] !== 0) ranges.push([base + (starts[i] as number), lengths[i] as number]);
        }
        need(ranges);
      }
      this.span = null;
      this.buffers = Array.from({ length: n }, (_, i) =>
        lengths[i] === 0 ? EMPTY : read(base + (starts[i] as number), lengths[i] as number),
      );
    }
  }

  /** The buffer that holds value `i`, from {@link offset}. */
  buffer(i: number): Buffer {
    return this.span ?? ((this.buffers as Buffer[])[i] as Buffer);
  }

  /** Where value `i` starts in {@link buffer}. */
  offset(i: number): number {
    return this.at[i] as number;
  }

  /** Value `i` as UTF-8 text. */
  text(i: number): string {
    const at = this.at[i] as number;
    return this.buffer(i).toString('utf8', at, at + (this.lengths[i] as number));
  }
}
