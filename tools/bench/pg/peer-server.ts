/**
 * The PostgreSQL peer of `bench:api`'s identity queries (run by ../pg-bench.ts in a child process, as bench:api runs
 * the API's server): `GET /api/v1/providers?taxonomy=&state=&city=&limit=&offset=` on node:http, answered with `pg`
 * (a pool of 16 connections, named prepared statements, the page and the exact count in parallel), with the
 * API's JSON body: its envelope, and each row presented by the contract's own mapping (`identityProviderFromRow`,
 * data-contracts/rows.ts), so that both answer the same bytes per row. A taxonomy is a 10-character code (any case) or a
 * classification name (any case), resolved like the API does (the classification map comes from the snapshot's
 * taxonomy object, in the file `PF_PEER_TAXONOMY`).
 *
 * Environment: the `PG*` variables of libpq (`PGHOST` the socket folder, `PGPORT`, `PGUSER`, `PGDATABASE`) and
 * `PF_PEER_TAXONOMY`. Prints `peer listening on <port>` once it listens on a free loopback port.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { type IdentityRow, identityProviderFromRow } from '../../../data-contracts/rows';
import { PEER_COLUMNS, PEER_TABLE } from './peer-schema';

const CODE = /^[0-9A-Za-z]{9}[Xx]$/;
const pool = new pg.Pool({ max: 16 });
/** Lower-cased classification name -> classification key. */
const classifications = new Map<string, string>(
  Object.entries(JSON.parse(readFileSync(process.env.PF_PEER_TAXONOMY ?? '', 'utf8')) as Record<string, string>),
);

interface Shape {
  name: string;
  where: string;
}

/** The WHERE clause of each query shape; values are always bound parameters. */
function shapeOf(kind: 'code' | 'class', state: boolean, city: boolean): Shape {
  const where = [kind === 'code' ? 'taxonomy_code = $1' : 'class_rep AND classification_key = $1'];
  if (state) where.push(`state = $${where.length + 1}`);
  if (city) where.push(`city_key = $${where.length + 1}`);
  return { name: `${kind}${state ? '_state' : ''}${city ? '_city' : ''}`, where: where.join(' AND ') };
}

async function answer(url: URL): Promise<{ status: number; body: string }> {
  const q = url.searchParams;
  const taxonomy = (q.get('taxonomy') ?? '').trim();
  const state = q.get('state')?.trim().toUpperCase() ?? null;
  const city = q.get('city')?.trim().toLowerCase() ?? null;
  const limit = Number(q.get('limit') ?? '50');
  const offset = Number(q.get('offset') ?? '0');
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000 || !Number.isSafeInteger(offset) || offset < 0) {
    return { status: 400, body: '{"error":"invalid_parameter"}' };
  }
  let kind: 'code' | 'class';
  let key: string;
  if (CODE.test(taxonomy)) {
    kind = 'code';
    key = taxonomy.toUpperCase();
  } else {
    const found = classifications.get(taxonomy.toLowerCase());
    if (found === undefined) return { status: 200, body: emptyPage(limit, offset) };
    kind = 'class';
    key = found;
  }
  const shape = shapeOf(kind, state !== null, city !== null);
  const values: (string | number)[] = [key];
  if (state !== null) values.push(state);
  if (city !== null) values.push(city);
  const n = values.length;
  const [page, count] = await Promise.all([
    pool.query({
      name: `page_${shape.name}`,
      text: `SELECT ${PEER_COLUMNS.join(', ')} FROM ${PEER_TABLE} WHERE ${shape.where} ORDER BY npi LIMIT $${n + 1} OFFSET $${n + 2}`,
      values: [...values, limit, offset],
    }),
    pool.query({
      name: `count_${shape.name}`,
      text: `SELECT count(*)::int AS n FROM ${PEER_TABLE} WHERE ${shape.where}`,
      values,
    }),
  ]);
  const total = (count.rows[0] as { n: number }).n;
  const body = JSON.stringify({
    tier: 'enterprise',
    plan: 'enterprise',
    pagination: { total, limit, offset, returned: page.rows.length },
    filters: { vertical: null, taxonomy, state, city, business_mode: null },
    data: (page.rows as IdentityRow[]).map(identityProviderFromRow),
  });
  return { status: 200, body };
}

function emptyPage(limit: number, offset: number): string {
  return JSON.stringify({ pagination: { total: 0, limit, offset, returned: 0 }, data: [] });
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://peer');
  const done = ({ status, body }: { status: number; body: string }) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  if (url.pathname !== '/api/v1/providers') return done({ status: 404, body: '{"error":"not_found"}' });
  answer(url).then(done, (err: unknown) => {
    process.stderr.write(`peer: ${err instanceof Error ? err.message : String(err)}\n`);
    done({ status: 500, body: '{"error":"internal_error"}' });
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`peer listening on ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
