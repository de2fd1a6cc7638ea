import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ENDPOINT_FILE, LOCK_FILE } from '../../../../tools/local/dynamo-local';

const ROOT = path.resolve(__dirname, '../../../..');

/** Resolves with the base URL once `npm start` has printed its welcome, or rejects with its output. */
function waitForWelcome(child: ChildProcess, output: { text: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.text += chunk.toString('utf8');
      const url = /(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(output.text)?.[1];
      if (url && output.text.includes('Ctrl-C stops the server')) resolve(url);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output.text += chunk.toString('utf8');
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before serving:\n${output.text}`)));
  });
}

/** Resolves with the exit code, or null if the process is still running after `ms`. */
function exitWithin(child: ChildProcess, ms: number): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 128 : 0));
    });
  });
}

async function isServing(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/api/v1/coverage`, { signal: AbortSignal.timeout(1_000) });
    return true;
  } catch {
    return false;
  }
}

describe('npm start and signals', () => {
  let dir: string;
  let child: ChildProcess | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pf-start-signals-'));
  });
  afterEach(async () => {
    // A server left behind by a failing test (even after npm itself exited): end the process group we started.
    if (child?.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: nothing of the group is left.
      }
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('shuts the whole server down within 5 s when the npm start process gets SIGTERM', async () => {
    const env = { ...process.env, PF_LOCAL_DIR: dir, PORT: '0' };
    // Own process group, so cleanup can reach the server even if the signal did not.
    child = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = { text: '' };
    const url = await waitForWelcome(child, output);
    expect(await isServing(url)).toBe(true);

    // The signal goes to npm alone, as a process manager or `kill <pid>` sends it, not to the process group.
    child.kill('SIGTERM');
    expect(await exitWithin(child, 5_000)).not.toBeNull();
    expect(await isServing(url)).toBe(false);
    expect(output.text).toContain('SIGTERM: shutting down');
    // The embedded DynamoDB was stopped cleanly: no lock or endpoint file left for the next start to clear.
    const left = await readdir(dir);
    expect(left).not.toContain(LOCK_FILE);
    expect(left).not.toContain(ENDPOINT_FILE);
  }, 120_000);
});
