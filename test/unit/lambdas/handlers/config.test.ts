import path from 'node:path';
import { MIN_BUDGET_MB } from '../../../../data-contracts/memory-budget';
import { DEFAULT_NPI_ARENA_MB, loadConfig, MIN_NPI_ARENA_MB } from '../../../../lambdas/handlers/config';
import { ConfigError } from '../../../../platform/config';

const defaults = { localDir: '/tmp/pf-local' };

/** The message of the ConfigError `loadConfig(env)` throws. */
function failure(env: Record<string, string>, extra: Partial<Parameters<typeof loadConfig>[1]> = {}): string {
  try {
    loadConfig(env, { ...defaults, ...extra });
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig (the API process)', () => {
  it('defaults to the folder store, cache and local tables under the local root', () => {
    const config = loadConfig({}, defaults);
    expect(config.store).toEqual({ kind: 'folder', dir: '/tmp/pf-local/data' });
    expect(config.cacheDir).toBe('/tmp/pf-local/cache');
    expect(config.pointerTtlSeconds).toBe(60);
    expect(config.logLevel).toBe('info');
    expect(config.access.tables).toEqual({ kind: 'local', localDir: '/tmp/pf-local' });
  });

  it('reads an S3 store and a deployment, trimming every value', () => {
    const config = loadConfig(
      {
        PF_DATA_BUCKET: ' data-bucket ',
        PF_DATA_PREFIX: ' prod ',
        PF_S3_ENDPOINT: ' http://127.0.0.1:4568 ',
        AWS_REGION: ' eu-west-1 ',
        PF_KEYS_TABLE: ' keys ',
        PF_USAGE_TABLE: ' usage ',
        PF_CACHE_DIR: ' /tmp/cache ',
        PF_POINTER_TTL_SECONDS: ' 0.5 ',
        PF_LOG_LEVEL: ' debug ',
        PF_RECEIPT_SECRET_ARN: ' arn:aws:secretsmanager:eu-west-1:000000000000:secret:receipts ',
      },
      { ...defaults, requireDeployedTables: true },
    );
    expect(config.store).toEqual({
      kind: 's3',
      bucket: 'data-bucket',
      prefix: 'prod',
      endpoint: 'http://127.0.0.1:4568',
      region: 'eu-west-1',
    });
    expect(config.cacheDir).toBe('/tmp/cache');
    expect(config.pointerTtlSeconds).toBe(0.5);
    expect(config.logLevel).toBe('debug');
    expect(config.access.tables).toMatchObject({ kind: 'deployed', keysTable: 'keys', usageTable: 'usage' });
  });

  it('reads the CDN origin secret when the deployment sets one, and refuses a short one without echoing it', () => {
    expect(loadConfig({}, defaults).originSecret).toBeUndefined();
    const secret = 'x'.repeat(40);
    expect(loadConfig({ PF_ORIGIN_VERIFY_SECRET: secret }, defaults).originSecret).toBe(secret);
    const message = failure({ PF_ORIGIN_VERIFY_SECRET: 'short-secret' });
    expect(message).toContain('PF_ORIGIN_VERIFY_SECRET');
    expect(message).not.toContain('short-secret');
  });

  it('reads the receipts\u2019 secret ARN, else a seed, and requires one of them of a deployed function', () => {
    const arn = 'arn:aws:secretsmanager:eu-west-1:000000000000:secret:receipts';
    expect(loadConfig({ PF_RECEIPT_SECRET_ARN: arn, AWS_REGION: 'eu-west-1' }, defaults).receipts).toEqual({
      kind: 'secret',
      secretId: arn,
      region: 'eu-west-1',
    });
    expect(loadConfig({ PF_RECEIPT_SEED: ' s ' }, defaults).receipts).toEqual({ kind: 'seed', seed: 's' });
    expect(loadConfig({ PF_RECEIPT_SECRET_ARN: arn, PF_RECEIPT_SEED: 's' }, defaults).receipts?.kind).toBe('secret');
    expect(loadConfig({}, defaults).receipts).toBeUndefined();
    const deployed = { PF_KEYS_TABLE: 'keys', PF_USAGE_TABLE: 'usage' };
    expect(failure(deployed, { requireDeployedTables: true })).toBe(
      'PF_RECEIPT_SECRET_ARN is required when PF_RECEIPT_SEED is unset',
    );
  });

  it('treats blank values as unset', () => {
    const config = loadConfig(
      { PF_DATA_BUCKET: ' ', PF_DATA_DIR: '', PF_LOG_LEVEL: '  ', PF_LOCAL_DIR: ' ' },
      defaults,
    );
    expect(config.store).toEqual({ kind: 'folder', dir: path.resolve('/tmp/pf-local/data') });
    expect(config.logLevel).toBe('info');
  });

  it('names PF_KEYS_TABLE when a deployed function has no tables, even a blank one', () => {
    expect(failure({}, { requireDeployedTables: true })).toBe('PF_KEYS_TABLE is required');
    expect(failure({ PF_KEYS_TABLE: '  ' }, { requireDeployedTables: true })).toBe('PF_KEYS_TABLE is required');
  });

  it('sizes the NPI arena from PF_NPI_ARENA_MB, else 1 GB in a Lambda and 4 GB elsewhere', () => {
    const mb = (env: Record<string, string>) => loadConfig(env, defaults).npiArenaBytes / (1024 * 1024);
    expect(mb({})).toBe(DEFAULT_NPI_ARENA_MB.local);
    expect(mb({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '2048' })).toBe(DEFAULT_NPI_ARENA_MB.lambda);
    expect(mb({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '2048', PF_NPI_ARENA_MB: ' 3072 ' })).toBe(3072);
    expect(mb({ PF_NPI_ARENA_MB: String(MIN_NPI_ARENA_MB) })).toBe(MIN_NPI_ARENA_MB);
  });

  it.each([
    [{ PF_NPI_ARENA_MB: '8' }, `PF_NPI_ARENA_MB must be a whole number of at least ${MIN_NPI_ARENA_MB}, got "8"`],
    [{ PF_NPI_ARENA_MB: 'lots' }, `PF_NPI_ARENA_MB must be a whole number of at least ${MIN_NPI_ARENA_MB}, got "lots"`],
    [{ PF_POINTER_TTL_SECONDS: 'soon' }, 'PF_POINTER_TTL_SECONDS must be a number of at least 0, got "soon"'],
    [{ PF_POINTER_TTL_SECONDS: '-1' }, 'PF_POINTER_TTL_SECONDS must be a number of at least 0, got "-1"'],
    [{ PF_LOG_LEVEL: 'verbose' }, 'PF_LOG_LEVEL must be one of debug, info, warn, error, got "verbose"'],
    [
      { PF_MEMORY_BUDGET_MB: '64' },
      `PF_MEMORY_BUDGET_MB must be a whole number of at least ${MIN_BUDGET_MB}, got "64"`,
    ],
    [
      { PF_MEMORY_BUDGET_MB: '1.5GB' },
      `PF_MEMORY_BUDGET_MB must be a whole number of at least ${MIN_BUDGET_MB}, got "1.5GB"`,
    ],
    [
      { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '0' },
      'AWS_LAMBDA_FUNCTION_MEMORY_SIZE must be a whole number of at least 1, got "0"',
    ],
    [
      { PF_KEYS_TABLE: 'k', PF_USAGE_TABLE: 'u', PF_DYNAMODB_ENDPOINT: 'nope' },
      'PF_DYNAMODB_ENDPOINT must be a URL, got "nope"',
    ],
  ])('refuses %j: %s', (env, message) => {
    expect(failure(env)).toBe(message);
  });
});
