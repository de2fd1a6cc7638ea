/**
 * A shaping HTTP proxy on loopback in front of a protocol server (s3rver, dynalite): every request's response
 * starts no earlier than `latencyMs` after the request arrived (a first-byte delay), and each client connection's
 * response bytes flow at most `bytesPerSecond`. Each port it opens counts what passes through it (requests by
 * method, response body bytes), so a port given to one Lambda instance counts that instance's calls.
 *
 * AWS's S3 guidance: first-byte latencies of 100-200 ms for small objects, 85-90 MB/s per connection
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/optimizing-performance-guidelines.html).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ShapeOptions {
  latencyMs: number;
  /** Per connection; Infinity for none. */
  bytesPerSecond: number;
}

/** What one port has carried. */
export interface PortCounters {
  requests: number;
  gets: number;
  /** GETs that asked for a byte range. */
  rangeGets: number;
  heads: number;
  puts: number;
  /** Response body bytes. */
  bytesOut: number;
  /** Answers of 400 and above (`HTTP 404`), and requests the upstream server failed (answered 502 here), by message. */
  errors: Record<string, number>;
  /** Requests by `x-amz-target` (DynamoDB's operation: `DynamoDB_20120810.UpdateItem`). */
  targets: Record<string, number>;
}

export function emptyCounters(): PortCounters {
  return { requests: 0, gets: 0, rangeGets: 0, heads: 0, puts: 0, bytesOut: 0, errors: {}, targets: {} };
}

export function addCounters(into: PortCounters, from: PortCounters): void {
  into.requests += from.requests;
  into.gets += from.gets;
  into.rangeGets += from.rangeGets;
  into.heads += from.heads;
  into.puts += from.puts;
  into.bytesOut += from.bytesOut;
  for (const [target, n] of Object.entries(from.targets)) into.targets[target] = (into.targets[target] ?? 0) + n;
  for (const [error, n] of Object.entries(from.errors)) into.errors[error] = (into.errors[error] ?? 0) + n;
}

/** What passed between two readings of the same counters: `after` less `before`. */
export function subtractCounters(after: PortCounters, before: PortCounters): PortCounters {
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.entries(a).map(([k, n]) => [k, n - (b[k] ?? 0)]));
  return {
    requests: after.requests - before.requests,
    gets: after.gets - before.gets,
    rangeGets: after.rangeGets - before.rangeGets,
    heads: after.heads - before.heads,
    puts: after.puts - before.puts,
    bytesOut: after.bytesOut - before.bytesOut,
    errors: minus(after.errors, before.errors),
    targets: minus(after.targets, before.targets),
  };
}

/** A listening port of a {@link Shaper}. */
export interface ShapedPort {
  endpoint: string;
  counters: PortCounters;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `res` drains or closes, leaving no listener behind. */
function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export class Shaper {
  private readonly upstream: URL;

  constructor(
    upstreamEndpoint: string,
    private readonly shape: ShapeOptions,
  ) {
    this.upstream = new URL(upstreamEndpoint);
  }

  /** Opens a new loopback port with counters of its own. */
  async open(): Promise<ShapedPort> {
    const counters = emptyCounters();
    /** Per client connection: the time (ms) until which its bandwidth is spent. */
    const spentUntil = new WeakMap<Socket, number>();
    // An agent per port: one instance's connections never wait on another's.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const server = http.createServer((req, res) => this.forward(req, res, counters, spentUntil, agent));
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      counters,
      close: async () => {
        agent.destroy();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  private forward(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    counters: PortCounters,
    spentUntil: WeakMap<Socket, number>,
    agent: http.Agent,
  ): void {
    const arrived = performance.now();
    counters.requests += 1;
    if (req.method === 'GET') {
      counters.gets += 1;
      if (req.headers.range !== undefined) counters.rangeGets += 1;
    } else if (req.method === 'HEAD') counters.heads += 1;
    else if (req.method === 'PUT' || req.method === 'POST') counters.puts += 1;
    const target = req.headers['x-amz-target'];
    if (typeof target === 'string') counters.targets[target] = (counters.targets[target] ?? 0) + 1;
    const upstream = http.request(
      {
        host: this.upstream.hostname,
        port: this.upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (up) => {
        void this.relay(up, res, arrived, counters, spentUntil, req.socket);
      },
    );
    upstream.on('error', (err) => {
      counters.errors[err.message] = (counters.errors[err.message] ?? 0) + 1;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`shaper: upstream failed: ${err.message}`);
    });
    // A client that goes away (a timeout, a killed instance) frees the upstream request and its socket.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  private async relay(
    up: http.IncomingMessage,
    res: http.ServerResponse,
    arrived: number,
    counters: PortCounters,
    spentUntil: WeakMap<Socket, number>,
    socket: Socket,
  ): Promise<void> {
    up.pause();
    if ((up.statusCode ?? 0) >= 400) {
      const key = `HTTP ${up.statusCode}`;
      counters.errors[key] = (counters.errors[key] ?? 0) + 1;
    }
    const wait = arrived + this.shape.latencyMs - performance.now();
    if (wait > 0) await sleep(wait);
    res.writeHead(up.statusCode ?? 502, up.headers);
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    const perMs = this.shape.bytesPerSecond / 1000;
    try {
      // One chunk at a time, in order: each goes when the connection's bandwidth allows, and the response ends
      // only after the last one is written.
      for await (const chunk of up as AsyncIterable<Buffer>) {
        counters.bytesOut += chunk.length;
        if (Number.isFinite(perMs)) {
          const now = performance.now();
          const done = Math.max(spentUntil.get(socket) ?? 0, now) + chunk.length / perMs;
          spentUntil.set(socket, done);
          // Timers are coarse: a chunk due within a millisecond goes now, the debt carried by `spentUntil`.
          if (done - now >= 1) await sleep(done - now);
        }
        if (!res.write(chunk)) await drained(res);
        if (res.destroyed) return;
      }
      res.end();
    } catch {
      res.destroy();
    }
  }
}
