/** Starts a real DynamoDB protocol server (dynalite) on a loopback port 0 for integration tests. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

export interface DynaliteHandle {
  endpoint: string;
  server: Server;
  stop(): Promise<void>;
  /**
   * Listens again on the same port after {@link stop} (an outage that ends). The tables and items survive only
   * when the server was started with a `path`.
   */
  restart(): Promise<void>;
}

/** Options of {@link startDynalite}. */
export interface DynaliteOptions {
  /** A folder to persist the tables in (so they survive a stop and restart). Default: in memory. */
  path?: string;
}

export async function startDynalite(options: DynaliteOptions = {}): Promise<DynaliteHandle> {
  const server: Server = dynalite({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(options.path ? { path: options.path } : {}),
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // SDK clients keep sockets alive; close them so stop() does not wait on clients a test did not destroy.
        server.closeAllConnections();
      }),
    restart: () => listen(port),
  };
}
