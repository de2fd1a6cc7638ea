/** Before any scan: every input file exists and has its required columns. */
import path from 'node:path';
import { readCsvHeader, requireColumns } from '../csv/read';
import { EtlInputError } from '../errors';
import { FEED_FILES } from '../sources/feed';
import { LEIE_COLUMNS } from '../sources/leie';
import { NPPES_REQUIRED_COLUMNS } from '../sources/nppes-columns';
import { LeieAsOfError, resolveLeieAsOfs } from '../transforms/leie-as-of';
import type { BuildInputs } from './context';

/**
 * Fails fast, before any scan, on a missing file, a missing required column, or LEIE as-ofs that do not fit the
 * files; returns one as-of per LEIE file.
 */
export async function checkInputs(inputs: BuildInputs): Promise<string[]> {
  const reuse = inputs.reuseIdentityFrom === 'current';
  if (!reuse) {
    if (inputs.nppes.length === 0) throw new EtlInputError('(inputs)', 'no NPPES file given');
    for (const file of inputs.nppes) requireColumns(file, await readCsvHeader(file), NPPES_REQUIRED_COLUMNS);
    await readCsvHeader(inputs.nucc);
  }
  for (const file of inputs.leie) requireColumns(file, await readCsvHeader(file), Object.values(LEIE_COLUMNS));
  for (const file of inputs.fda) await readCsvHeader(file);
  for (const folder of inputs.feeds) {
    for (const name of Object.values(FEED_FILES)) await readCsvHeader(path.join(folder, name));
  }
  const { leie, leieAsOf } = inputs;
  try {
    // One string is every file's release; a list is one per file (already resolved from the operator's input).
    return resolveLeieAsOfs(leie, typeof leieAsOf === 'string' ? leie.map(() => leieAsOf) : leieAsOf);
  } catch (err) {
    if (!(err instanceof LeieAsOfError)) throw err;
    throw new EtlInputError('(inputs)', err.message);
  }
}
