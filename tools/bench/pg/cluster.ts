/**
 * A throwaway PostgreSQL 15 cluster for the peer benchmark, from Debian's `postgresql` package
 * (`/usr/lib/postgresql/15/bin`, or `PF_PG_BIN`): created with `initdb` (C collation, trust authentication),
 * listening on a Unix socket in its own folder only (no TCP port), run as the `postgres` user when this process
 * is root (PostgreSQL refuses to run as root). Durability is off: the cluster is a cache of a snapshot, rebuilt
 * from it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const PG_BIN = process.env.PF_PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** The socket's port number (it only names the socket file: the cluster listens on no TCP port). */
export const PG_PORT = 5433;

/** The server settings of the peer: 256 MB of shared buffers, room for the pool, no durability. */
const SETTINGS = [
  "listen_addresses=''",
  'shared_buffers=256MB',
  'effective_cache_size=4GB',
  'max_connections=40',
  'fsync=off',
  'synchronous_commit=off',
  'full_page_writes=off',
  'jit=off',
];

export interface Cluster {
  dir: string;
  /** The folder of the Unix socket (libpq's `PGHOST`). */
  socketDir: string;
  /** libpq's environment for a client of the cluster. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Runs a PostgreSQL program as the postgres user (through runuser when this process is root). */
async function asPostgres(program: string, args: string[]): Promise<string> {
  const file = path.join(PG_BIN, program);
  const root = process.getuid?.() === 0;
  const { stdout } = await run(root ? 'runuser' : file, root ? ['-u', 'postgres', '--', file, ...args] : args, {
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** Creates the cluster in `dir` unless it exists, starts it and waits until it accepts connections. */
export async function startCluster(dir: string): Promise<Cluster> {
  if (!existsSync(path.join(PG_BIN, 'postgres'))) {
    throw new Error(`no PostgreSQL server in ${PG_BIN}: install Debian's postgresql package, or set PF_PG_BIN`);
  }
  await mkdir(dir, { recursive: true });
  if (process.getuid?.() === 0) await chown(dir, ...(await postgresIds()));
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    await asPostgres('initdb', ['-D', dir, '--locale=C', '--encoding=UTF8', '-U', 'postgres', '--auth=trust']);
  }
  const options = [`-k ${dir}`, `-p ${PG_PORT}`, ...SETTINGS.map((s) => `-c ${s}`)].join(' ');
  await asPostgres('pg_ctl', ['-D', dir, '-l', path.join(dir, 'server.log'), '-o', options, '-w', 'start']);
  return {
    dir,
    socketDir: dir,
    env: { PGHOST: dir, PGPORT: String(PG_PORT), PGUSER: 'postgres', PGDATABASE: 'postgres' },
    stop: async () => {
      await asPostgres('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']);
    },
  };
}

async function postgresIds(): Promise<[number, number]> {
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  return [Number(stdout.trim()), Number(group.trim())];
}

/** Runs SQL (or a psql meta-command such as `\copy`) with psql as a client of the cluster; returns its output. */
export async function psql(cluster: Cluster, command: string): Promise<string> {
  const { stdout } = await run(
    path.join(PG_BIN, 'psql'),
    ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', command],
    {
      env: { ...process.env, ...cluster.env },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return stdout.trim();
}
