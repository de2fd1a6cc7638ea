/**
 * The Lambda Runtime API of one execution environment, on a loopback port: what the Runtime Interface Client
 * (`aws-lambda-ric`) inside the instance polls for work and posts results to.
 * https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html
 *
 * - `GET  /2018-06-01/runtime/invocation/next`: held until an invocation is handed over; the first call ends init.
 * - `POST /2018-06-01/runtime/invocation/{id}/response` and `/error`: the invocation's result.
 * - `POST /2018-06-01/runtime/init/error`: init failed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const BASE = '/2018-06-01/runtime';

/** An invocation's end, as the runtime posted it. */
export type RuntimeResult = { kind: 'response'; body: Buffer } | { kind: 'error'; errorType: string; body: Buffer };

/** An invocation handed to the runtime. */
export interface PendingInvocation {
  requestId: string;
  event: Buffer;
  deadlineMs: number;
}

/** What the owner of the environment hears from the runtime. */
export interface RuntimeApiEvents {
  /** The runtime asked for its next invocation: the first time, init is over; later, the previous one is done. */
  onNext(): void;
  onInitError(errorType: string, body: Buffer): void;
}

export class RuntimeApi {
  private readonly server: http.Server;
  private waiting: http.ServerResponse | null = null;
  private queued: PendingInvocation | null = null;
  private current: { requestId: string; settle: (result: RuntimeResult) => void } | null = null;

  private constructor(
    private readonly functionArn: string,
    private readonly events: RuntimeApiEvents,
  ) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.route(req, res, Buffer.concat(chunks)));
    });
    this.server.keepAliveTimeout = 0;
    this.server.requestTimeout = 0;
  }

  /** Starts the API on a loopback port 0; `address` is what `AWS_LAMBDA_RUNTIME_API` carries. */
  static async start(functionArn: string, events: RuntimeApiEvents): Promise<RuntimeApi> {
    const api = new RuntimeApi(functionArn, events);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    return api;
  }

  get address(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /**
   * Hands an invocation to the runtime (now if it waits on `next`, else when it asks) and resolves with its result.
   * One at a time: an environment never holds two.
   */
  invoke(invocation: PendingInvocation): Promise<RuntimeResult> {
    if (this.current !== null || this.queued !== null) throw new Error('the environment is busy');
    return new Promise<RuntimeResult>((settle) => {
      this.current = { requestId: invocation.requestId, settle };
      this.queued = invocation;
      this.deliver();
    });
  }

  /** Ends the invocation in flight with `result` (a timeout, or the process died). */
  abandon(result: RuntimeResult): void {
    const current = this.current;
    this.current = null;
    this.queued = null;
    current?.settle(result);
  }

  async close(): Promise<void> {
    this.waiting?.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private deliver(): void {
    const res = this.waiting;
    const next = this.queued;
    if (res === null || next === null) return;
    this.waiting = null;
    this.queued = null;
    res.writeHead(200, {
      'content-type': 'application/json',
      'lambda-runtime-aws-request-id': next.requestId,
      'lambda-runtime-deadline-ms': String(next.deadlineMs),
      'lambda-runtime-invoked-function-arn': this.functionArn,
      'lambda-runtime-trace-id': `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${next.requestId.replace(/-/g, '').slice(0, 24)};Sampled=0`,
    });
    res.end(next.event);
  }

  private route(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
    const url = req.url ?? '';
    if (req.method === 'GET' && url === `${BASE}/invocation/next`) {
      this.waiting = res;
      this.events.onNext();
      this.deliver();
      return;
    }
    const done = /^\/2018-06-01\/runtime\/invocation\/([^/]+)\/(response|error)$/.exec(url);
    if (req.method === 'POST' && done) {
      const requestId = decodeURIComponent(done[1] as string);
      if (this.current?.requestId !== requestId) {
        answer(res, 400, { errorMessage: `no invocation ${requestId} in flight`, errorType: 'InvalidRequestID' });
        return;
      }
      const { settle } = this.current;
      this.current = null;
      answer(res, 202, { status: 'OK' });
      settle(
        done[2] === 'response'
          ? { kind: 'response', body }
          : {
              kind: 'error',
              errorType: String(req.headers['lambda-runtime-function-error-type'] ?? 'Unhandled'),
              body,
            },
      );
      return;
    }
    if (req.method === 'POST' && url === `${BASE}/init/error`) {
      answer(res, 202, { status: 'OK' });
      this.events.onInitError(String(req.headers['lambda-runtime-function-error-type'] ?? 'Unknown'), body);
      return;
    }
    answer(res, 404, { errorMessage: `unknown runtime API path ${req.method} ${url}`, errorType: 'NotFound' });
  }
}

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
