import { loadAccessConfig } from '../../../../lambdas/access/config';
import { ConfigError } from '../../../../platform/config';

const defaults = { localDir: '/repo/.local' };

describe('loadAccessConfig', () => {
  it('uses the local default under PF_LOCAL_DIR when no table is configured', () => {
    expect(loadAccessConfig({}, defaults)).toEqual({
      tables: { kind: 'local', localDir: '/repo/.local' },
      meterTimeoutMs: 250,
      keyCacheSeconds: 5,
    });
    expect(loadAccessConfig({ PF_LOCAL_DIR: '/tmp/x' }, defaults).tables).toEqual({
      kind: 'local',
      localDir: '/tmp/x',
    });
  });

  it("uses a deployment's tables when PF_KEYS_TABLE is set, with endpoint and region if given", () => {
    const config = loadAccessConfig(
      {
        PF_KEYS_TABLE: 'prod-keys',
        PF_USAGE_TABLE: 'prod-usage',
        PF_DYNAMODB_ENDPOINT: 'http://127.0.0.1:4567/',
        AWS_REGION: 'eu-west-1',
        PF_METER_TIMEOUT_MS: '100',
        PF_KEY_CACHE_SECONDS: '0',
      },
      defaults,
    );
    expect(config).toEqual({
      tables: {
        kind: 'deployed',
        keysTable: 'prod-keys',
        usageTable: 'prod-usage',
        endpoint: 'http://127.0.0.1:4567',
        region: 'eu-west-1',
      },
      meterTimeoutMs: 100,
      keyCacheSeconds: 0,
    });
  });

  it('fails fast naming PF_USAGE_TABLE when only PF_KEYS_TABLE is set', () => {
    expect(() => loadAccessConfig({ PF_KEYS_TABLE: 'prod-keys' }, defaults)).toThrow(ConfigError);
    expect(() => loadAccessConfig({ PF_KEYS_TABLE: 'prod-keys', PF_USAGE_TABLE: ' ' }, defaults)).toThrow(
      /PF_USAGE_TABLE/,
    );
  });

  it('names the variable holding a malformed value', () => {
    const tables = { PF_KEYS_TABLE: 'k', PF_USAGE_TABLE: 'u' };
    expect(() => loadAccessConfig({ ...tables, PF_DYNAMODB_ENDPOINT: 'not a url' }, defaults)).toThrow(
      /PF_DYNAMODB_ENDPOINT/,
    );
    expect(() => loadAccessConfig({ PF_METER_TIMEOUT_MS: '0' }, defaults)).toThrow(/PF_METER_TIMEOUT_MS/);
    expect(() => loadAccessConfig({ PF_KEY_CACHE_SECONDS: 'soon' }, defaults)).toThrow(/PF_KEY_CACHE_SECONDS/);
  });

  it('trims values and treats blank ones as unset', () => {
    const config = loadAccessConfig(
      {
        PF_KEYS_TABLE: ' prod-keys ',
        PF_USAGE_TABLE: '\tprod-usage\n',
        PF_DYNAMODB_ENDPOINT: ' ',
        AWS_REGION: '',
        PF_METER_TIMEOUT_MS: ' 100 ',
        PF_KEY_CACHE_SECONDS: '  ',
      },
      defaults,
    );
    expect(config).toEqual({
      tables: { kind: 'deployed', keysTable: 'prod-keys', usageTable: 'prod-usage' },
      meterTimeoutMs: 100,
      keyCacheSeconds: 5,
    });
    expect(loadAccessConfig({ PF_KEYS_TABLE: '  ', PF_LOCAL_DIR: ' /tmp/y ' }, defaults).tables).toEqual({
      kind: 'local',
      localDir: '/tmp/y',
    });
  });

  it.each([
    [{ PF_METER_TIMEOUT_MS: '-5' }, 'PF_METER_TIMEOUT_MS must be a number greater than 0, got "-5"'],
    [{ PF_METER_TIMEOUT_MS: '250ms' }, 'PF_METER_TIMEOUT_MS must be a number greater than 0, got "250ms"'],
    [{ PF_KEY_CACHE_SECONDS: '-1' }, 'PF_KEY_CACHE_SECONDS must be a number of at least 0, got "-1"'],
    [{ PF_KEYS_TABLE: 'k' }, 'PF_USAGE_TABLE is required when PF_KEYS_TABLE is set'],
  ])('refuses %j with a ConfigError saying %j', (env, message) => {
    expect(() => loadAccessConfig(env, defaults)).toThrow(ConfigError);
    expect(() => loadAccessConfig(env, defaults)).toThrow(message);
  });
});
