import path from 'node:path';
import { ConfigError } from '../../../../platform/config';
import { DEFAULT_PORT, loadLocalConfig } from '../../../../tools/local/config';

const defaults = { localDir: '/repo/.local' };

describe('loadLocalConfig (npm start)', () => {
  it('defaults to port 8787, the bench route off, and the local root', () => {
    const config = loadLocalConfig({}, defaults);
    expect(config.port).toBe(DEFAULT_PORT);
    expect(config.benchCeiling).toBe(false);
    expect(config.localDir).toBe('/repo/.local');
    expect(config.api.store).toEqual({ kind: 'folder', dir: '/repo/.local/data' });
  });

  it('trims values and resolves the local root', () => {
    const config = loadLocalConfig({ PORT: ' 0 ', PF_BENCH_CEILING: ' 1 ', PF_LOCAL_DIR: ' rel/dir ' }, defaults);
    expect(config.port).toBe(0);
    expect(config.benchCeiling).toBe(true);
    expect(config.localDir).toBe(path.resolve('rel/dir'));
  });

  it.each([
    [{ PORT: 'http' }, 'PORT must be a whole number from 0 to 65535, got "http"'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535, got "70000"'],
    [{ PORT: '80.5' }, 'PORT must be a whole number from 0 to 65535, got "80.5"'],
    [{ PF_BENCH_CEILING: 'yes' }, 'PF_BENCH_CEILING must be one of 0, 1, got "yes"'],
    [{ PF_LOG_LEVEL: 'loud' }, 'PF_LOG_LEVEL must be one of debug, info, warn, error, got "loud"'],
  ])('refuses %j: %s', (env, message) => {
    expect(() => loadLocalConfig(env, defaults)).toThrow(ConfigError);
    expect(() => loadLocalConfig(env, defaults)).toThrow(message);
  });
});
