/**
 * The as-of (release) time of each LEIE file of a build: the full `UPDATED.csv` first, then the monthly
 * supplements, each with its own as-of. They come from the operator (one per file, in order; or one for the first
 * file only) and otherwise from the file's name:
 *
 * - `YYYY-MM-DD` or `YYYYMMDD` anywhere in the name: that day, 00:00Z;
 * - the OIG's monthly supplement names `YYMMEXCL.csv` and `YYMMREIN.csv` (e.g. `2611EXCL.csv`, the exclusions of
 *   November 2026): the first day of the following month, 00:00Z, when the month's list is complete.
 *
 * As-ofs never decrease in file order: a reinstatement removes an exclusion of an EARLIER file, so the files' order
 * is their time order, and the last file's as-of is the screen's `checked_at`.
 */
import path from 'node:path';
import { isoSeconds } from '../../platform/iso-time';
import { parseIsoDateTime } from './dates';

/** Why the as-ofs cannot be resolved; `file` names the file at fault when one is. */
export class LeieAsOfError extends Error {
  override readonly name = 'LeieAsOfError';

  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(message);
  }
}

/** The first day of the following month after `YYMM` of an OIG supplement name, 00:00Z. */
function supplementAsOf(yy: number, mm: number): string | null {
  if (mm < 1 || mm > 12) return null;
  return isoSeconds(new Date(Date.UTC(2000 + yy, mm, 1)));
}

function dayAsOf(y: string, m: string, d: string): string | null {
  const time = Date.UTC(Number(y), Number(m) - 1, Number(d));
  const date = new Date(time);
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d))
    return null;
  return isoSeconds(date);
}

/**
 * The as-of a file's name carries (ISO date-time to the second), or null.
 * @example leieAsOfFromName('inputs/leie/2611EXCL.csv') === '2026-12-01T00:00:00Z'
 */
export function leieAsOfFromName(file: string): string | null {
  const name = path.basename(file);
  const dashed = /(?<![0-9])([0-9]{4})-([0-9]{2})-([0-9]{2})(?![0-9])/.exec(name);
  if (dashed) return dayAsOf(dashed[1] as string, dashed[2] as string, dashed[3] as string);
  const compact = /(?<![0-9])([0-9]{4})([0-9]{2})([0-9]{2})(?![0-9])/.exec(name);
  if (compact) return dayAsOf(compact[1] as string, compact[2] as string, compact[3] as string);
  const oig = /^([0-9]{2})([0-9]{2})(?:EXCL|REIN)\.csv$/i.exec(name);
  if (oig) return supplementAsOf(Number(oig[1]), Number(oig[2]));
  return null;
}

/** An as-of given by the operator: an ISO 8601 date-time, to the second. */
function parseGivenAsOf(text: string): string {
  const ms = parseIsoDateTime(text.trim());
  if (ms === null) throw new LeieAsOfError(`LEIE as-of is not an ISO date-time: ${JSON.stringify(text)}`);
  return isoSeconds(new Date(ms));
}

/**
 * One as-of per LEIE file, in file order. `given`: the operator's as-ofs, one per file, or one for the first file
 * (the rest from their names), or none (every file from its name).
 * @throws LeieAsOfError for a count that fits neither, an as-of that is not an ISO date-time, a file without one,
 * or as-ofs that decrease.
 */
export function resolveLeieAsOfs(files: readonly string[], given: string | readonly string[]): string[] {
  const list = (typeof given === 'string' ? [given] : [...given]).filter((g) => g.trim() !== '');
  if (files.length === 0) return [];
  if (list.length > 1 && list.length !== files.length) {
    throw new LeieAsOfError(
      `${list.length} LEIE as-ofs for ${files.length} LEIE files: give one per file, or one for the first file ` +
        'and the rest in the file names',
    );
  }
  const asOfs = files.map((file, i) => {
    const text = list[i];
    if (text !== undefined) return parseGivenAsOf(text);
    const named = leieAsOfFromName(file);
    if (named === null) {
      throw new LeieAsOfError(
        `no LEIE as-of for ${path.basename(file)}: give one (ISO date-time), or name the file with its date ` +
          '(YYYY-MM-DD, YYYYMMDD, or OIG YYMMEXCL.csv / YYMMREIN.csv)',
        file,
      );
    }
    return named;
  });
  for (let i = 1; i < asOfs.length; i += 1) {
    if ((asOfs[i] as string) < (asOfs[i - 1] as string)) {
      throw new LeieAsOfError(
        `LEIE as-ofs must not decrease in file order: ${path.basename(files[i] as string)} (${asOfs[i]}) comes after ` +
          `${path.basename(files[i - 1] as string)} (${asOfs[i - 1]})`,
        files[i],
      );
    }
  }
  return asOfs;
}
