import fc from 'fast-check';
import { ConfigError, readEnv } from '../../../platform/config';

/** The ConfigError thrown by `read`, or a failure when it does not throw one. */
function configError(read: () => unknown): ConfigError {
  try {
    read();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('readEnv', () => {
  describe('optional', () => {
    it('returns the value trimmed', () => {
      expect(readEnv({ A: '  x y \n' }).optional('A')).toBe('x y');
    });

    it('treats unset, empty and blank values as missing', () => {
      const read = readEnv({ EMPTY: '', BLANK: ' \t\n' });
      expect(read.optional('UNSET')).toBeUndefined();
      expect(read.optional('EMPTY')).toBeUndefined();
      expect(read.optional('BLANK')).toBeUndefined();
    });

    it('returns any non-blank value trimmed, for every string', () => {
      fc.assert(
        fc.property(fc.string(), (value) => {
          const read = readEnv({ A: value }).optional('A');
          expect(read).toBe(value.trim() === '' ? undefined : value.trim());
        }),
      );
    });
  });

  describe('required', () => {
    it('throws a ConfigError naming a missing or blank variable', () => {
      for (const env of [{}, { PF_X: '' }, { PF_X: '   ' }]) {
        const err = configError(() => readEnv(env).required('PF_X'));
        expect(err.variable).toBe('PF_X');
        expect(err.message).toBe('PF_X is required');
        expect(err.name).toBe('ConfigError');
      }
    });

    it('says when the variable is required', () => {
      expect(() => readEnv({}).required('PF_USAGE_TABLE', 'when PF_KEYS_TABLE is set')).toThrow(
        'PF_USAGE_TABLE is required when PF_KEYS_TABLE is set',
      );
    });

    it('returns the trimmed value', () => {
      expect(readEnv({ PF_X: ' bucket ' }).required('PF_X')).toBe('bucket');
    });
  });

  describe('number', () => {
    it('returns the fallback when unset or blank, the parsed value otherwise', () => {
      expect(readEnv({}).number('N', { min: 0 }, 60)).toBe(60);
      expect(readEnv({ N: ' ' }).number('N', { min: 0 }, 60)).toBe(60);
      expect(readEnv({}).number('N')).toBeUndefined();
      expect(readEnv({ N: ' 0.5 ' }).number('N', { min: 0 }, 60)).toBe(0.5);
      expect(readEnv({ N: '0' }).number('N', { min: 0 }, 60)).toBe(0);
    });

    it.each(['soon', '12abc', '0x10', '1e3', 'Infinity', 'NaN', '1,5', '--1'])(
      'refuses %j, naming the variable',
      (raw) => {
        const err = configError(() => readEnv({ PF_TTL: raw }).number('PF_TTL', { min: 0 }, 60));
        expect(err.variable).toBe('PF_TTL');
        expect(err.message).toBe(`PF_TTL must be a number of at least 0, got ${JSON.stringify(raw)}`);
      },
    );

    it('refuses values out of range, saying the range', () => {
      expect(() => readEnv({ N: '-1' }).number('N', { min: 0 })).toThrow('N must be a number of at least 0, got "-1"');
      expect(() => readEnv({ N: '0' }).number('N', { above: 0 })).toThrow('N must be a number greater than 0, got "0"');
      expect(() => readEnv({ N: '11' }).number('N', { max: 10 })).toThrow('N must be a number of at most 10, got "11"');
    });
  });

  describe('integer', () => {
    it('reads whole numbers within the bounds', () => {
      expect(readEnv({ PORT: ' 8080 ' }).integer('PORT', { min: 0, max: 65_535 }, 8787)).toBe(8080);
      expect(readEnv({}).integer('PORT', { min: 0, max: 65_535 }, 8787)).toBe(8787);
      expect(readEnv({ PORT: '0' }).integer('PORT', { min: 0, max: 65_535 }, 8787)).toBe(0);
    });

    it.each(['1.5', '80.0', 'http', '1e3', '65536', '-1'])('refuses %j, naming the variable and the range', (raw) => {
      expect(() => readEnv({ PORT: raw }).integer('PORT', { min: 0, max: 65_535 }, 8787)).toThrow(
        `PORT must be a whole number from 0 to 65535, got ${JSON.stringify(raw)}`,
      );
    });

    it('accepts exactly the whole numbers in range, for every integer', () => {
      fc.assert(
        fc.property(fc.integer({ min: -100_000, max: 100_000 }), (n) => {
          const read = () => readEnv({ N: String(n) }).integer('N', { min: 0, max: 65_535 });
          if (n >= 0 && n <= 65_535) expect(read()).toBe(n);
          else expect(read).toThrow(ConfigError);
        }),
      );
    });
  });

  describe('oneOf', () => {
    const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

    it('returns the trimmed value when allowed, the fallback when unset', () => {
      expect(readEnv({ L: ' warn ' }).oneOf('L', LEVELS, 'info')).toBe('warn');
      expect(readEnv({ L: '' }).oneOf('L', LEVELS, 'info')).toBe('info');
      expect(readEnv({}).oneOf('L', LEVELS)).toBeUndefined();
    });

    it('refuses any other value, listing the allowed ones', () => {
      for (const raw of ['verbose', 'INFO', 'info,warn']) {
        const err = configError(() => readEnv({ PF_LOG_LEVEL: raw }).oneOf('PF_LOG_LEVEL', LEVELS, 'info'));
        expect(err.variable).toBe('PF_LOG_LEVEL');
        expect(err.message).toBe(`PF_LOG_LEVEL must be one of debug, info, warn, error, got ${JSON.stringify(raw)}`);
      }
    });
  });

  describe('url', () => {
    it('returns the URL without a trailing slash', () => {
      expect(readEnv({ U: ' http://127.0.0.1:4567/ ' }).url('U')).toBe('http://127.0.0.1:4567');
      expect(readEnv({}).url('U')).toBeUndefined();
    });

    it('refuses a value that is not a URL, keeping the cause', () => {
      const err = configError(() => readEnv({ U: 'not a url' }).url('U'));
      expect(err.message).toBe('U must be a URL, got "not a url"');
      expect((err.cause as Error).name).toBe('TypeError');
    });
  });
});
