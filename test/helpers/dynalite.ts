/** Starts a real DynamoDB protocol server (dynalite, in memory) on a loopback port 0 for integration tests. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

export interface DynaliteHandle {
  endpoint: string;
  server: Server;
  stop(): Promise<void>;
}

export async function startDynalite(): Promise<DynaliteHandle> {
  const server: Server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
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
  };
}
