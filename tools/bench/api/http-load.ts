/**
 * The load generator of `bench:api`: keep-alive GETs on loopback from N concurrent loops, each taking the next URL
 * of a scenario's list, until a time limit (or a request count) is reached.
 */
import http from 'node:http';

export interface Reply {
  status: number;
  body: string;
}

/**
 * One GET with the key as a bearer token. The load loops pass `keepBody: false`: the body is read but not kept or
 * decoded, so that the load generator, which shares the machine's CPUs with the server, does not spend them on
 * 1 MB pages.
 */
export function request(
  agent: http.Agent,
  port: number,
  urlPath: string,
  key: string,
  keepBody = true,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: urlPath, agent, headers: { authorization: `Bearer ${key}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (keepBody) chunks.push(c);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: keepBody ? Buffer.concat(chunks).toString('utf8') : '' }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

/**
 * A scenario's URLs and a cursor over them that persists from one load to the next, so that the measurement
 * continues where its warm-up stopped instead of replaying the URLs the warm-up just sent.
 */
export class UrlCycle {
  private next = 0;
  constructor(readonly paths: readonly string[]) {
    if (paths.length === 0) throw new Error('a scenario needs at least one URL');
  }
  take(): string {
    const p = this.paths[this.next % this.paths.length] as string;
    this.next += 1;
    return p;
  }
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** Error count per HTTP status; `0` counts transport errors. */
  errorStatuses: Record<string, number>;
  rps: number;
  p50: number;
  p99: number;
  seconds: number;
}

export interface LoadOptions {
  agent: http.Agent;
  port: number;
  key: string;
  connections: number;
  seconds: number;
  /** Stop after this many requests even before the time limit. Default: no limit. */
  maxRequests?: number;
}

/** `connections` concurrent keep-alive loops until `seconds` pass (or `maxRequests` are sent). */
export async function runLoad(urls: UrlCycle, options: LoadOptions): Promise<LoadResult> {
  const { agent, port, key } = options;
  const maxRequests = options.maxRequests ?? Number.POSITIVE_INFINITY;
  const latencies: number[] = [];
  const errorStatuses: Record<string, number> = {};
  let errors = 0;
  let sent = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline && sent < maxRequests) {
      const p = urls.take();
      sent += 1;
      const t = performance.now();
      const res = await request(agent, port, p, key, false).catch(() => ({ status: 0, body: '' }));
      latencies.push(performance.now() - t);
      if (res.status !== 200) {
        errors += 1;
        errorStatuses[String(res.status)] = (errorStatuses[String(res.status)] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return {
    requests: latencies.length,
    errors,
    errorStatuses,
    rps: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    seconds: elapsed,
  };
}
