import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { hashKey } from '../../../../lambdas/access/api-key';
import { CachedKeyLookup } from '../../../../lambdas/access/cached-key-lookup';
import { createDynamoClient } from '../../../../lambdas/access/dynamo';
import { KeyStore } from '../../../../lambdas/access/key-store';
import { ENDPOINT_FILE, LOCAL_KEYS_TABLE, startLocalDynamo } from '../../../../tools/local/dynamo-local';
import { type DynaliteHandle, startDynalite } from '../../../helpers/dynalite';

const ROOT = path.resolve(__dirname, '../../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const CLI = path.join(ROOT, 'tools/keys/keys-cli.ts');
const KEY = /pf_[A-Za-z0-9_-]{43}/;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `tsx tools/keys/keys-cli.ts …` as `npm run keys` would; fails the test if it does not exit by itself. */
function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const base = { ...process.env };
  // The CLI's configuration comes only from what each test passes.
  for (const name of ['PF_KEYS_TABLE', 'PF_USAGE_TABLE', 'PF_DYNAMODB_ENDPOINT', 'PF_LOCAL_DIR']) delete base[name];
  return new Promise((resolve, reject) => {
    execFile(TSX, [CLI, ...args], { cwd: ROOT, env: { ...base, ...env }, timeout: 30_000 }, (err, stdout, stderr) => {
      if (err?.killed) return reject(new Error(`keys CLI did not exit: ${args.join(' ')}\n${stderr}`));
      const code = err ? Number(err.code ?? 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Asserts a CLI run printed no stack trace: no `    at fn (file:line)` frames. */
function expectNoStackTrace(result: CliResult): void {
  expect(result.stderr).not.toMatch(/^\s+at .+[(:]\d+/m);
  expect(result.stdout).not.toMatch(/^\s+at .+[(:]\d+/m);
}

describe('keys CLI on the local default (no server running)', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pf-keys-cli-'));
    env = { PF_LOCAL_DIR: dir };
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('create --json prints one JSON object with the key, plan, vertical, status and prefix', async () => {
    const result = await runCli(['create', '--plan', 'builder', '--vertical', 'glp1', '--json'], env);
    expect(result).toMatchObject({ code: 0 });
    const created = JSON.parse(result.stdout);
    expect(created).toMatchObject({ plan: 'builder', vertical: 'glp1', status: 'active' });
    expect(created.key).toMatch(new RegExp(`^${KEY.source}$`));
    expect(created.key_prefix).toBe(created.key.slice(0, 10));
  });

  it('create without --json prints the key and says it is shown only once', async () => {
    const result = await runCli(['create', '--plan', 'free'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(KEY);
    expect(result.stdout).toMatch(/shown only once/);
  });

  it('persists between runs, leaves no lock or endpoint file behind, and list never shows a key', async () => {
    const created = JSON.parse((await runCli(['create', '--plan', 'developer', '--json'], env)).stdout);
    const listed = await runCli(['list'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(created.key_id);
    expect(listed.stdout).toMatch(/developer\s+-\s+active/);
    expect(listed.stdout).not.toMatch(KEY);
    expect((await readdir(dir)).sort()).toEqual(['dynamo']);
  });

  it('revoke marks the key revoked; rotate --json issues a new key of the same plan and vertical', async () => {
    const created = JSON.parse(
      (await runCli(['create', '--plan', 'builder', '--vertical', 'dental', '--json'], env)).stdout,
    );
    const rotated = await runCli(['rotate', created.key, '--json'], env);
    expect(rotated.code).toBe(0);
    const fresh = JSON.parse(rotated.stdout);
    expect(fresh).toMatchObject({
      plan: 'builder',
      vertical: 'dental',
      status: 'active',
      replaces: created.key_id,
    });
    expect(fresh.key).not.toBe(created.key);

    const revoked = await runCli(['revoke', fresh.key], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(/Revoked/);

    const listed = (await runCli(['list'], env)).stdout;
    expect(listed).toMatch(new RegExp(`${created.key_id}\\s+-\\s+builder\\s+dental\\s+rotated`));
    expect(listed).toMatch(new RegExp(`${fresh.key_id}\\s+-\\s+builder\\s+dental\\s+revoked`));
  });

  it('names keys by id: list shows id, label, plan, vertical, created, last used and this month; show, rotate and revoke take the id', async () => {
    const created = JSON.parse(
      (await runCli(['create', '--plan', 'builder', '--vertical', 'glp1', '--label', 'Acme Clinics', '--json'], env))
        .stdout,
    );
    expect(created.key_id).toBe(`key_${hashKey(created.key).slice(0, 16)}`);
    expect(created.label).toBe('Acme Clinics');

    const listed = await runCli(['list'], env);
    const month = new Date().toISOString().slice(0, 7);
    expect(listed.stdout.split('\n')[0]).toMatch(
      new RegExp(`^ID\\s+LABEL\\s+PLAN\\s+VERTICAL\\s+STATUS\\s+CREATED\\s+LAST USED\\s+USED ${month}$`),
    );
    expect(listed.stdout).toMatch(
      new RegExp(`${created.key_id}\\s+Acme Clinics\\s+builder\\s+glp1\\s+active\\s+${created.created_at}\\s+-\\s+0`),
    );
    const listedJson = JSON.parse((await runCli(['list', '--json'], env)).stdout);
    expect(listedJson.keys.find((k: { key_id: string }) => k.key_id === created.key_id)).toMatchObject({
      label: 'Acme Clinics',
      last_used_at: null,
      usage: { month, used: 0 },
    });

    const shown = await runCli(['show', created.key_id], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^id:\\s+${created.key_id}$`, 'm'));
    expect(shown.stdout).toMatch(/^label:\s+Acme Clinics$/m);
    expect(shown.stdout).toMatch(new RegExp(`^used ${month}:\\s+0$`, 'm'));
    expect(shown.stdout).not.toMatch(KEY);

    const rotated = JSON.parse((await runCli(['rotate', created.key_id, '--json'], env)).stdout);
    expect(rotated).toMatchObject({ replaces: created.key_id, label: 'Acme Clinics', status: 'active' });
    const old = JSON.parse((await runCli(['show', created.key_id, '--json'], env)).stdout);
    expect(old).toMatchObject({ status: 'rotated', replaced_by: rotated.key_id });

    const revoked = await runCli(['revoke', rotated.key_id], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked builder key ${rotated.key_id}`);
    expect(JSON.parse((await runCli(['show', rotated.key, '--json'], env)).stdout).status).toBe('revoked');
  });

  it('prints the version from package.json on --version', async () => {
    const result = await runCli(['--version'], env);
    expect(result).toMatchObject({ code: 0, stdout: `keys ${require('../../../../package.json').version}\n` });
  });

  it.each([
    [['help', 'show'], /^Usage: npm run keys -- show <key-id> \[--json\]/],
    [['rotate', '--help'], /^Usage: npm run keys -- rotate <key-id> \[--json\]/],
    [['create', '-h'], /--label <text>/],
  ])("prints one command's help for %j", async (args, text) => {
    const result = await runCli(args, env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(text);
    expect(result.stdout).not.toMatch(/^Manage Provider Facts API keys/);
  });

  it.each([
    [['create', '--plan', 'gold'], /unknown plan "gold"/],
    [['create', '--plan', 'builder'], /bound to one vertical/],
    [['create', '--plan', 'builder', '--vertical', 'dentistry'], /unknown vertical "dentistry"/],
    [['create', '--plan', 'free', '--vertical', 'glp1'], /not bound to a vertical/],
    [['create'], /create needs --plan/],
    [['revoke', `pf_${'A'.repeat(43)}`], /no such key/],
    [['revoke'], /revoke needs the key/],
    [['show', 'key_0123456789abcdef'], /no such key/],
    [['revoke', 'key_0123456789abcdef'], /no such key/],
    [['list', '--label', 'x'], /--label is only for create/],
    [['help', 'launch'], /no help for "launch"/],
    [['rotate', 'pf_typo', '--json'], /no such key/],
    [['launch'], /unknown command "launch"/],
    [['list', '--colour'], /Unknown option '--colour'/],
  ])('refuses %j with a clear message on stderr and exit code 2', async (args, message) => {
    const result = await runCli(args, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expectNoStackTrace(result);
  });

  it('prints usage on --help', async () => {
    const result = await runCli(['--help'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /create --plan <free\|builder\|developer\|enterprise> \[--vertical <v>\] \[--label <text>\] \[--json\]/,
    );
    expect(result.stdout).toMatch(/rotate <key-id> \[--json\]/);
    expect(result.stdout).toMatch(/show <key-id> \[--json\]/);
  });

  it('falls back to opening the folder itself when the endpoint file is stale', async () => {
    await writeFile(path.join(dir, ENDPOINT_FILE), JSON.stringify({ endpoint: 'http://127.0.0.1:9', pid: 4_194_305 }));
    try {
      const result = await runCli(['create', '--plan', 'enterprise', '--json'], env);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).plan).toBe('enterprise');
    } finally {
      await rm(path.join(dir, ENDPOINT_FILE), { force: true });
    }
  });
});

describe('keys CLI while the local server holds the database', () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof startLocalDynamo>>;
  let client: DynamoDBClient;
  let store: KeyStore;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pf-keys-cli-served-'));
    // This test process plays the running `npm start`: it holds <dir>/dynamo and publishes its endpoint.
    server = await startLocalDynamo({ dir });
    client = createDynamoClient({ endpoint: server.endpoint });
    store = new KeyStore({ client, tableName: LOCAL_KEYS_TABLE });
  });
  afterAll(async () => {
    client.destroy();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a key through the server endpoint that the server sees at once', async () => {
    const result = await runCli(['create', '--plan', 'free', '--json'], { PF_LOCAL_DIR: dir });
    expect(result.code).toBe(0);
    const { key } = JSON.parse(result.stdout);
    expect(await store.findByKey(key)).toMatchObject({ plan: 'free', status: 'active', keyHash: hashKey(key) });
  });

  it('revokes a key that the server, with its 5-second cache, refuses once the TTL has passed', async () => {
    const { key } = await store.create({ plan: 'developer' });
    let clock = 0;
    const keys = new CachedKeyLookup(store, { ttlSeconds: 5, nowMs: () => clock });
    expect((await keys.findByKey(key))?.status).toBe('active');

    const result = await runCli(['revoke', key], { PF_LOCAL_DIR: dir });
    expect(result.code).toBe(0);
    clock += 5_000;
    expect((await keys.findByKey(key))?.status).toBe('revoked');
  });

  it('rotates a key through the server endpoint', async () => {
    const { key } = await store.create({ plan: 'builder', vertical: 'glp1' });
    const result = await runCli(['rotate', key, '--json'], { PF_LOCAL_DIR: dir });
    expect(result.code).toBe(0);
    const fresh = JSON.parse(result.stdout);
    expect(await store.findByKey(fresh.key)).toMatchObject({ plan: 'builder', vertical: 'glp1', status: 'active' });
    expect(await store.findByKey(key)).toMatchObject({ status: 'rotated', replacedBy: hashKey(fresh.key) });
  });
});

describe("keys CLI against a deployment's table (PF_KEYS_TABLE)", () => {
  let dynalite: DynaliteHandle;
  beforeAll(async () => {
    dynalite = await startDynalite();
  });
  afterAll(async () => {
    await dynalite.stop();
  });

  it('uses PF_KEYS_TABLE at PF_DYNAMODB_ENDPOINT', async () => {
    const env = { PF_KEYS_TABLE: 'acme-keys', PF_USAGE_TABLE: 'acme-usage', PF_DYNAMODB_ENDPOINT: dynalite.endpoint };
    const result = await runCli(['create', '--plan', 'developer', '--json'], env);
    expect(result.code).toBe(0);
    const { key } = JSON.parse(result.stdout);
    const client = createDynamoClient({ endpoint: dynalite.endpoint });
    try {
      expect(await new KeyStore({ client, tableName: 'acme-keys' }).findByKey(key)).toMatchObject({
        plan: 'developer',
        status: 'active',
      });
    } finally {
      client.destroy();
    }
  });

  it('fails fast naming PF_USAGE_TABLE when only PF_KEYS_TABLE is set', async () => {
    const result = await runCli(['list'], { PF_KEYS_TABLE: 'acme-keys', PF_DYNAMODB_ENDPOINT: dynalite.endpoint });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/PF_USAGE_TABLE is required/);
    expectNoStackTrace(result);
  });
});
