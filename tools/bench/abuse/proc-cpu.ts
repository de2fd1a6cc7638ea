/**
 * The CPU time a process has used, from `/proc/<pid>/stat` (Linux): user plus system time of all its threads (V8's,
 * libuv's pool, DuckDB's), in milliseconds. bench:abuse reads it before and after a series of calls.
 */
import { readFile } from 'node:fs/promises';

/**
 * Ticks per second of the times in `/proc/<pid>/stat` (`USER_HZ`, what `getconf CLK_TCK` prints): 100 on every Linux
 * architecture Node runs on, whatever the kernel's own tick rate (proc(5), "utime").
 */
export const USER_HZ = 100;

/**
 * utime + stime of a `/proc/<pid>/stat` line, in milliseconds. The command name (field 2) is in parentheses and may
 * hold spaces and parentheses itself, so the fields are counted from the last `)`: after it come state (field 3),
 * ..., utime (field 14) and stime (field 15). Throws on a line that is not one.
 * @example parseProcStatCpuMs('42 (node) S 1 42 42 0 -1 4194304 10 0 0 0 150 25 0 0 20 0 11 0 9 1 1') // 1750
 */
export function parseProcStatCpuMs(line: string): number {
  const close = line.lastIndexOf(')');
  if (close < 0) throw new Error('not a /proc/<pid>/stat line: no command name');
  const fields = line
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 (state): field n is fields[n - 3].
  const utime = Number(fields[14 - 3]);
  const stime = Number(fields[15 - 3]);
  if (!Number.isSafeInteger(utime) || !Number.isSafeInteger(stime) || utime < 0 || stime < 0) {
    throw new Error('not a /proc/<pid>/stat line: no utime and stime');
  }
  return ((utime + stime) * 1000) / USER_HZ;
}

/** The CPU milliseconds process `pid` has used so far (all its threads). */
export async function readProcessCpuMs(pid: number): Promise<number> {
  return parseProcStatCpuMs(await readFile(`/proc/${pid}/stat`, 'utf8'));
}
