import { loadEtlLambdaConfig } from '../../../../etl/handlers/config';
import { ConfigError } from '../../../../platform/config';

describe('loadEtlLambdaConfig', () => {
  it('reads the bucket and defaults the rest', () => {
    expect(loadEtlLambdaConfig({ PF_DATA_BUCKET: 'data' })).toEqual({
      bucket: 'data',
      prefix: '',
      workDir: '/tmp/pf-etl',
      logLevel: 'info',
    });
  });

  it('trims every value', () => {
    expect(
      loadEtlLambdaConfig({
        PF_DATA_BUCKET: ' data ',
        PF_DATA_PREFIX: ' prod ',
        PF_S3_ENDPOINT: ' http://127.0.0.1:4568 ',
        AWS_REGION: ' us-east-2 ',
        PF_CACHE_DIR: ' /tmp/work ',
        PF_LOG_LEVEL: ' warn ',
      }),
    ).toEqual({
      bucket: 'data',
      prefix: 'prod',
      endpoint: 'http://127.0.0.1:4568',
      region: 'us-east-2',
      workDir: '/tmp/work',
      logLevel: 'warn',
    });
  });

  it('names PF_DATA_BUCKET when it is missing or blank', () => {
    for (const env of [{}, { PF_DATA_BUCKET: '' }, { PF_DATA_BUCKET: '  ' }]) {
      expect(() => loadEtlLambdaConfig(env)).toThrow(ConfigError);
      expect(() => loadEtlLambdaConfig(env)).toThrow('PF_DATA_BUCKET is required');
    }
  });

  it('refuses an unknown log level, naming PF_LOG_LEVEL', () => {
    expect(() => loadEtlLambdaConfig({ PF_DATA_BUCKET: 'data', PF_LOG_LEVEL: 'trace' })).toThrow(
      'PF_LOG_LEVEL must be one of debug, info, warn, error, got "trace"',
    );
  });

  it('reads the reject and shrink shares when set', () => {
    expect(
      loadEtlLambdaConfig({ PF_DATA_BUCKET: 'data', PF_ETL_MAX_REJECT_SHARE: '0.02', PF_ETL_MAX_SHRINK_SHARE: '0.5' }),
    ).toMatchObject({ maxRejectShare: 0.02, maxShrinkShare: 0.5 });
  });
});
