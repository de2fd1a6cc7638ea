/**
 * Structured JSON logs, one line per event. API keys never reach a log line: the `key` query parameter is
 * stripped from any logged URL by `redactUrl`, and fields named like credentials are replaced by `[redacted]`.
 */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const SECRET_FIELD = /^(key|api_?key|x-api-key|authorization|token|secret|password)$/i;
const KEY_PARAM = /([?&])key=[^&#]*/gi;
const KEY_LIKE = /\bpf_[A-Za-z0-9_-]{20,}\b/g;

/** Removes the `key` query parameter's value from a URL or path. */
export function redactUrl(url: string): string {
  return url.replace(KEY_PARAM, '$1key=[redacted]');
}

function redactValue(name: string, value: unknown): unknown {
  if (SECRET_FIELD.test(name)) return '[redacted]';
  if (typeof value === 'string') return redactUrl(value).replace(KEY_LIKE, 'pf_[redacted]');
  if (value instanceof Error) return { name: value.name, message: redactUrl(value.message), stack: value.stack };
  return value;
}

/** A logger writing one JSON object per line to `write` (stdout by default). */
export function createJsonLogger(
  options: { level?: LogLevel; write?: (line: string) => void; base?: LogFields } = {},
): Logger {
  const min = LOG_LEVELS.indexOf(options.level ?? 'info');
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const emit = (level: LogLevel, message: string, fields: LogFields = {}) => {
    if (LOG_LEVELS.indexOf(level) < min) return;
    const entry: LogFields = { level, time: new Date().toISOString(), message: redactUrl(message), ...options.base };
    for (const [name, value] of Object.entries(fields)) entry[name] = redactValue(name, value);
    write(JSON.stringify(entry));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

/** A logger that drops everything (tests that do not look at logs). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
