/**
 * The load generator of `bench:api`: keep-alive GETs on loopback from N concurrent loops, each taking the next URL
 * of a scenario's list, until a time limit (or a request count) is reached. The bench runs it in a worker thread
 * of its own ({@link LoadWorker}): the bench's process holds DuckDB and the drawn workloads, and its collections
 * would otherwise pause the load generator's event loop and be measured as the server's latency.
 */
import http from 'node:http';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

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
  private next: number;
  constructor(
    readonly paths: readonly string[],
    start = 0,
  ) {
    if (paths.length === 0) throw new Error('a scenario needs at least one URL');
    this.next = start;
  }
  take(): string {
    const p = this.paths[this.next % this.paths.length] as string;
    this.next += 1;
    return p;
  }
  /** How many URLs were taken (where the next load continues). */
  get position(): number {
    return this.next;
  }
  /** Continues at `position` (a load run elsewhere took the URLs before it). */
  seek(position: number): void {
    this.next = position;
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

/** What the load worker is asked (load-worker.ts). */
export interface LoadRequest {
  id: number;
  paths: readonly string[];
  start: number;
  seconds: number;
  maxRequests?: number;
}

/** What the load worker answers. */
export type LoadReply = { id: number; result: LoadResult; position: number } | { id: number; error: string };

/**
 * The load generator in a worker thread (an isolate and event loop of its own, with its own keep-alive
 * connections), run one load at a time.
 */
export class LoadWorker {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly waiting = new Map<number, (reply: LoadReply) => void>();

  constructor(options: { port: number; key: string; connections: number }) {
    const file = path.join(__dirname, 'load-worker.ts');
    // The worker runs the TypeScript source through tsx, as the bench itself runs.
    this.worker = new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, {
      eval: true,
      workerData: options,
    });
    this.worker.on('message', (reply: LoadReply) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
    this.worker.on('error', (err) => {
      for (const done of this.waiting.values()) done({ id: -1, error: err.message });
      this.waiting.clear();
    });
  }

  /** One load of `urls` (continuing where its last load stopped). */
  async run(urls: UrlCycle, options: { seconds: number; maxRequests?: number }): Promise<LoadResult> {
    const id = this.nextId++;
    const reply = await new Promise<LoadReply>((resolve) => {
      this.waiting.set(id, resolve);
      const request: LoadRequest = { id, paths: urls.paths, start: urls.position, ...options };
      this.worker.postMessage(request);
    });
    if ('error' in reply) throw new Error(`load worker: ${reply.error}`);
    urls.seek(reply.position);
    return reply.result;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
