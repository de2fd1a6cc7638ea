/**
 * The load generator's worker thread (http-load.ts `LoadWorker`): runs each load it is sent with its own keep-alive
 * agent and answers the result and where the URL list stopped.
 */
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { type LoadReply, type LoadRequest, runLoad, UrlCycle } from './http-load';

const { port, key, connections } = workerData as { port: number; key: string; connections: number };
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

parentPort?.on('message', (request: LoadRequest) => {
  const urls = new UrlCycle(request.paths, request.start);
  runLoad(urls, {
    agent,
    port,
    key,
    connections,
    seconds: request.seconds,
    ...(request.maxRequests === undefined ? {} : { maxRequests: request.maxRequests }),
  }).then(
    (result) => parentPort?.postMessage({ id: request.id, result, position: urls.position } satisfies LoadReply),
    (err: unknown) =>
      parentPort?.postMessage({
        id: request.id,
        error: err instanceof Error ? err.message : String(err),
      } satisfies LoadReply),
  );
});
