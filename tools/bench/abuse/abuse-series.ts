/**
 * One series of bench:abuse: the calls of one list sent one after the other from one key on a keep-alive
 * connection, with the server process's CPU time (utime + stime, /proc) read before the first and 250 ms after the last,
 * each call's wall time, and every answer's status. A 429 is told apart by its error code (`429 quota_exceeded`).
 */
import http from 'node:http';
import { readProcessCpuMs } from './proc-cpu';

/**
 * How long after the last answer the CPU time is read: the work a series leaves behind (its last log lines, a
 * collection of its garbage) is its own.
 */
const TAIL_MS = 250;

/** What a series expects of every answer: a 200 (the fresh key), or 429 `quota_exceeded` (the exhausted key). */
export type Expectation = 'ok' | 'exhausted';

export const EXPECTED_STATUS: Record<Expectation, string> = { ok: '200', exhausted: '429 quota_exceeded' };

export interface SeriesResult {
  calls: number;
  /** Server CPU over the series, in milliseconds (10 ms ticks). */
  cpuMs: number;
  cpuMsPerCall: number;
  wallMsPerCall: number;
  wallP50Ms: number;
  /** Answers by status (`200`, `429 quota_exceeded`, `0 ECONNRESET` for a transport error, …). */
  statuses: Record<string, number>;
  /** Answers other than the expected one. */
  errors: number;
  /** The first unexpected answer's status and the start of its body. */
  firstError?: string;
}

export interface SeriesTarget {
  agent: http.Agent;
  port: number;
  pid: number;
}

/**
 * Sends `urls` in order with `key`. `beforeCall(i)` runs before call i, outside its timing (the fresh key's counter
 * is reset there; the bench's DynamoDB is in this process, so the server does no work meanwhile).
 */
export async function runSeries(
  target: SeriesTarget,
  key: string,
  urls: readonly string[],
  expect: Expectation,
  beforeCall?: (i: number) => Promise<void>,
): Promise<SeriesResult> {
  const statuses: Record<string, number> = {};
  const walls: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let wallTotal = 0;
  const cpuBefore = await readProcessCpuMs(target.pid);
  for (const [i, url] of urls.entries()) {
    await beforeCall?.(i);
    const t = performance.now();
    const answer = await send(target, url, key);
    const wall = performance.now() - t;
    walls.push(wall);
    wallTotal += wall;
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    if (answer.status !== EXPECTED_STATUS[expect]) {
      errors += 1;
      firstError ??= `${answer.status}: ${answer.body.slice(0, 200)}`;
    }
  }
  await new Promise((resolve) => setTimeout(resolve, TAIL_MS));
  const cpuMs = (await readProcessCpuMs(target.pid)) - cpuBefore;
  walls.sort((a, b) => a - b);
  return {
    calls: urls.length,
    cpuMs,
    cpuMsPerCall: cpuMs / urls.length,
    wallMsPerCall: wallTotal / urls.length,
    wallP50Ms: walls[Math.floor(walls.length / 2)] ?? Number.NaN,
    statuses,
    errors,
    ...(firstError === undefined ? {} : { firstError }),
  };
}

/**
 * One GET with the key as a bearer token: its status (with the error code of a 4xx or 5xx) and, unless it is a 200,
 * its body. A 200's body is read but not kept, so this process spends little CPU on 1 MB pages.
 */
export function send(target: SeriesTarget, urlPath: string, key: string): Promise<{ status: string; body: string }> {
  return new Promise((resolve) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port: target.port,
        path: urlPath,
        agent: target.agent,
        headers: { authorization: `Bearer ${key}` },
      },
      (res) => {
        const code = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (code !== 200) chunks.push(c);
        });
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: code === 200 ? '200' : `${code} ${errorCode(body)}`, body });
        });
        res.on('error', (err) => resolve({ status: `0 ${nameOf(err)}`, body: '' }));
      },
    );
    req.on('error', (err) => resolve({ status: `0 ${nameOf(err)}`, body: '' }));
  });
}

function errorCode(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null && 'code' in parsed && typeof parsed.code === 'string') {
      return parsed.code;
    }
  } catch {
    // Not the contract's error body: named as such below.
  }
  return 'unknown';
}

function nameOf(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'error';
}
