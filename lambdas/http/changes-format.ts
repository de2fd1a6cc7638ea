/** The change feed's CSV body (data-contracts/csv.ts: CHANGE_CSV_COLUMNS). */
import { CHANGE_CSV_COLUMNS, flattenChange, toCsv } from '../../data-contracts/csv';
import type { ChangeEntry } from '../../data-contracts/types';

export function changesCsvBytes(entries: readonly ChangeEntry[]): Buffer {
  return Buffer.from(toCsv(CHANGE_CSV_COLUMNS, entries.map(flattenChange)), 'utf8');
}
