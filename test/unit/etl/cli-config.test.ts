import { runCli } from '../../../etl/cli';
import { loadEtlCliConfig } from '../../../etl/cli/config';
import { ConfigError } from '../../../platform/config';

describe('loadEtlCliConfig', () => {
  it('defaults to the folder store under .local and warn-level logs', () => {
    expect(loadEtlCliConfig({})).toEqual({ prefix: '', localDir: '.local', logLevel: 'warn' });
  });

  it('trims every value and treats blank ones as unset', () => {
    expect(
      loadEtlCliConfig({
        PF_DATA_BUCKET: ' data ',
        PF_DATA_PREFIX: ' p ',
        PF_DATA_DIR: '  ',
        PF_LOCAL_DIR: ' /tmp/pf ',
        AWS_REGION: '',
        PF_S3_ENDPOINT: ' http://127.0.0.1:4568 ',
        PF_LOG_LEVEL: ' debug ',
      }),
    ).toEqual({
      bucket: 'data',
      prefix: 'p',
      localDir: '/tmp/pf',
      endpoint: 'http://127.0.0.1:4568',
      logLevel: 'debug',
    });
  });

  it('refuses an unknown log level, naming PF_LOG_LEVEL', () => {
    expect(() => loadEtlCliConfig({ PF_LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    expect(() => loadEtlCliConfig({ PF_LOG_LEVEL: 'loud' })).toThrow(
      'PF_LOG_LEVEL must be one of debug, info, warn, error, got "loud"',
    );
  });

  it('makes `npm run etl` exit 2 with one line naming the variable', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['build', '--demo'], {
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      stderrIsTty: false,
      env: { PF_LOG_LEVEL: 'loud' },
      cwd: '/tmp',
    });
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('')).toBe('error: PF_LOG_LEVEL must be one of debug, info, warn, error, got "loud"\n');
  });

  it('reads the reject and shrink shares, and refuses one outside 0..1 naming the variable', () => {
    expect(loadEtlCliConfig({ PF_ETL_MAX_REJECT_SHARE: '0.05', PF_ETL_MAX_SHRINK_SHARE: '0.2' })).toMatchObject({
      maxRejectShare: 0.05,
      maxShrinkShare: 0.2,
    });
    expect(() => loadEtlCliConfig({ PF_ETL_MAX_SHRINK_SHARE: '2' })).toThrow(/PF_ETL_MAX_SHRINK_SHARE/);
  });
});
