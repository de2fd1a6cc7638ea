/**
 * The node:http adapter (`@hono/node-server`): the same app on a local port, for `npm start`, the benchmark
 * and the integration tests.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

/** A listening server. */
export interface NodeServer {
  /** `http://<host>:<port>` */
  url: string;
  port: number;
  server: Server;
  /** Stops accepting connections, closes idle keep-alive sockets and waits for in-flight requests. */
  close(): Promise<void>;
}

/**
 * Serves `app` on `hostname:port` (port 0 picks a free one).
 * @example const server = await serveNode(app, { port: 8787, hostname: '127.0.0.1' });
 */
export function serveNode(app: Hono, options: { port: number; hostname?: string }): Promise<NodeServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port, hostname }, (info: AddressInfo) => {
      server.off('error', reject);
      resolve({
        url: `http://${hostname}:${info.port}`,
        port: info.port,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    }) as Server;
    server.once('error', reject);
  });
}
