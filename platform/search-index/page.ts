/**
 * A search's page (./reader.ts): the matched entries of a range of the index, read into identity rows when asked for,
 * as objects or written from the index's bytes into a sink (no object or decoded name per row).
 */
import type { IdentityRowSink, IdentityRows } from '../../data-contracts/identity-json';
import type { IdentityRow } from '../../data-contracts/rows';
import { HeapValues } from '../binary/heap-values';
import type { SearchCells } from './cells';
import { ENTRY } from './format';

/** A page's names are read in one positional read when they lie within this many bytes. */
const NAME_SPAN_BYTES = 256 * 1024;

/** One search's page: the matched entries of `bytes` (offsets `at`, shown codes `codes`), read when asked for. */
export class SearchPage implements IdentityRows {
  readonly length: number;
  private readonly names: HeapValues;

  constructor(
    private readonly cells: SearchCells,
    private readonly bytes: Buffer,
    private readonly at: readonly number[],
    private readonly codes: readonly number[],
    names: number,
  ) {
    const n = at.length;
    this.length = n;
    const starts = new Uint32Array(n);
    const lengths = new Uint32Array(n);
    for (let i = 0; i < n; i += 1) {
      starts[i] = bytes.readUInt32LE((at[i] as number) + ENTRY.nameStart);
      lengths[i] = bytes.readUInt16LE((at[i] as number) + ENTRY.nameLength);
    }
    this.names = new HeapValues(
      starts,
      lengths,
      names,
      NAME_SPAN_BYTES,
      (offset, length) => cells.bytesAt(offset, length),
      (ranges) => cells.need(ranges),
    );
  }

  row(i: number): IdentityRow {
    const cells = this.cells.cellsOf(this.bytes, this.at[i] as number, this.codes[i] as number);
    const oig = cells.oig;
    return {
      npi: cells.npi,
      name: this.names.text(i),
      taxonomy_code: cells.code,
      taxonomy_display: cells.display,
      classification_key: cells.classificationKey,
      is_primary: cells.isPrimary,
      class_rep: null,
      city: cells.city,
      state: this.cells.header.state,
      checked_at: cells.checkedAt,
      oig_excluded: oig !== null,
      oig_type: oig?.[0] ?? null,
      oig_date: oig?.[1] ?? null,
      oig_checked_at: oig?.[2] ?? null,
      oig_candidate_count: cells.candidates,
    };
  }

  writeTo(sink: IdentityRowSink): void {
    const state = this.cells.header.state || null;
    for (let i = 0; i < this.length; i += 1) {
      const e = this.at[i] as number;
      const cells = this.cells.cellsOf(this.bytes, e, this.codes[i] as number);
      const oig = cells.oig;
      sink.row(
        this.bytes,
        e + ENTRY.npi,
        10,
        this.names.buffer(i),
        this.names.offset(i),
        this.names.lengths[i] as number,
        cells.code || null,
        cells.display || null,
        cells.city || null,
        state,
        cells.checkedAt || null,
        oig === null && cells.candidates === 0
          ? null
          : {
              oig_excluded: oig !== null,
              oig_type: oig?.[0] ?? null,
              oig_date: oig?.[1] ?? null,
              oig_checked_at: oig?.[2] ?? null,
              oig_candidate_count: cells.candidates,
            },
      );
    }
  }
}
