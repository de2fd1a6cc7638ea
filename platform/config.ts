/**
 * The one environment reader of every process (the API, the ETL's CLI and Lambdas, the local tools), after
 * Powertools `packages/commons/src/envUtils.ts`. An entry point passes its environment map (`process.env`, or a plain
 * object in tests) to its `load...Config(env)`, which reads each variable through {@link readEnv}: values are
 * trimmed, an empty value counts as unset, and a missing or malformed variable fails fast with a
 * {@link ConfigError} that names it. Variable names come from `data-contracts/env.ts`.
 */

/** An environment map: `process.env` at an entry point, a plain object in tests. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A missing or malformed environment variable. The message starts with its name; `variable` carries it too. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  /**
   * @param variable the environment variable's name
   * @param problem what is wrong, completing the sentence that starts with the name (`is required`)
   */
  constructor(
    readonly variable: string,
    problem: string,
    options?: ErrorOptions,
  ) {
    super(`${variable} ${problem}`, options);
  }
}

/** Bounds of a number read by {@link EnvReader.number} or {@link EnvReader.integer}. */
export interface NumberBounds {
  /** The smallest accepted value (inclusive). */
  min?: number;
  /** The largest accepted value (inclusive). */
  max?: number;
  /** Values must be greater than this (for "a positive number": `above: 0`). */
  above?: number;
}

/** Typed reads of one environment map. Each read trims the value and treats an empty value as unset. */
export interface EnvReader {
  /** The trimmed value, or undefined when unset or blank. */
  optional(name: string): string | undefined;
  /**
   * The trimmed value; a {@link ConfigError} when unset or blank.
   * @param when why it is required, appended to the message (`when PF_KEYS_TABLE is set`)
   */
  required(name: string, when?: string): string;
  /** A decimal number (`250`, `0.5`) within `bounds`, or `fallback` when unset. */
  number(name: string, bounds: NumberBounds, fallback: number): number;
  number(name: string, bounds?: NumberBounds): number | undefined;
  /** A whole number (digits, optionally signed) within `bounds`, or `fallback` when unset. */
  integer(name: string, bounds: NumberBounds, fallback: number): number;
  integer(name: string, bounds?: NumberBounds): number | undefined;
  /** One of `values` (exact match), or `fallback` when unset. */
  oneOf<const T extends string>(name: string, values: readonly T[], fallback: T): T;
  oneOf<const T extends string>(name: string, values: readonly T[]): T | undefined;
  /** An absolute URL, normalised without a trailing slash (`http://127.0.0.1:4567`), or undefined when unset. */
  url(name: string): string | undefined;
}

const DECIMAL = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;
const WHOLE = /^[+-]?[0-9]+$/;

/**
 * A reader over `env`.
 * @example
 * const read = readEnv(process.env);
 * const bucket = read.required(ENV.dataBucket);
 * const ttl = read.number(ENV.pointerTtlSeconds, { min: 0 }, 60);
 * const level = read.oneOf(ENV.logLevel, LOG_LEVELS, 'info');
 */
export function readEnv(env: Env): EnvReader {
  const optional = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };

  function numeric(name: string, whole: boolean, bounds: NumberBounds = {}, fallback?: number): number | undefined {
    const raw = optional(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!(whole ? WHOLE : DECIMAL).test(raw) || !withinBounds(value, bounds)) {
      throw new ConfigError(name, `must be ${describeNumber(whole, bounds)}, got ${JSON.stringify(raw)}`);
    }
    return value;
  }

  return {
    optional,
    required(name, when) {
      const value = optional(name);
      if (value === undefined) throw new ConfigError(name, when ? `is required ${when}` : 'is required');
      return value;
    },
    number: ((name: string, bounds?: NumberBounds, fallback?: number) =>
      numeric(name, false, bounds, fallback)) as EnvReader['number'],
    integer: ((name: string, bounds?: NumberBounds, fallback?: number) =>
      numeric(name, true, bounds, fallback)) as EnvReader['integer'],
    oneOf: (<T extends string>(name: string, values: readonly T[], fallback?: T): T | undefined => {
      const raw = optional(name);
      if (raw === undefined) return fallback;
      if (!(values as readonly string[]).includes(raw)) {
        throw new ConfigError(name, `must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
      }
      return raw as T;
    }) as EnvReader['oneOf'],
    url(name) {
      const raw = optional(name);
      if (raw === undefined) return undefined;
      try {
        return new URL(raw).toString().replace(/\/$/, '');
      } catch (err) {
        throw new ConfigError(name, `must be a URL, got ${JSON.stringify(raw)}`, { cause: err });
      }
    },
  };
}

function withinBounds(value: number, { min, max, above }: NumberBounds): boolean {
  return (
    Number.isFinite(value) &&
    (min === undefined || value >= min) &&
    (max === undefined || value <= max) &&
    (above === undefined || value > above)
  );
}

/** "a whole number from 0 to 65535", "a number greater than 0", "a number of at least 0". */
function describeNumber(whole: boolean, { min, max, above }: NumberBounds): string {
  const kind = whole ? 'a whole number' : 'a number';
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
  const parts = [
    ...(above !== undefined ? [`greater than ${above}`] : []),
    ...(min !== undefined ? [`of at least ${min}`] : []),
    ...(max !== undefined ? [`of at most ${max}`] : []),
  ];
  return parts.length === 0 ? kind : `${kind} ${parts.join(' and ')}`;
}
