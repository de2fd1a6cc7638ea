/**
 * Structured JSON logs, one line per event. API keys never reach a log line, whatever their encoding:
 * - a request target (path and query) is logged as {@link redactRequestTarget} rebuilds it: from the parsed,
 *   decoded parameter names, with the value of every key-bearing name (`key`, `api_key`, …, in any case and any
 *   percent-encoding) replaced by `[redacted]`;
 * - any text that holds an API key (`pf_…`), raw or percent-encoded once or more, has it replaced;
 * - fields named like credentials are replaced by `[redacted]`.
 */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /**
   * Whether a line of `level` would be written; a caller whose fields cost work to compute (the request line's
   * redacted path, on every request) asks first. Absent: assume it would.
   */
  enabled?(level: LogLevel): boolean;
}

const REDACTED = '[redacted]';
const SECRET_FIELD = /^(key|api_?key|x-api-key|authorization|token|secret|password)$/i;
/** Query parameter names whose value is a credential, compared after decoding, trimmed and lower-cased. */
const SECRET_PARAMETER = /^(key|api[_-]?key|x-api-key|authorization|access[_-]?token|token|secret|password)$/;
/** An API key as `generateApiKey` writes it (`pf_` + base64url), anywhere in a text, any letter case of `pf_`. */
const KEY_LIKE = /pf_[A-Za-z0-9_-]{20,}/gi;
const HAS_KEY_LIKE = /pf_[A-Za-z0-9_-]{20,}/i;
/** Percent-decoding rounds when looking for a hidden key: `%2570` is `p` after two. */
const DECODE_ROUNDS = 4;

/** Percent-decodes `text`, keeping any malformed escape as it is (never throws). */
function decodePercent(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** `text` and its successive percent-decodings (at most {@link DECODE_ROUNDS}), until one changes nothing. */
function decodings(text: string): string[] {
  const out = [text];
  let current = text;
  for (let round = 0; round < DECODE_ROUNDS; round += 1) {
    const next = decodePercent(current);
    if (next === current) break;
    out.push(next);
    current = next;
  }
  return out;
}

/** Whether `text` holds an API key, raw or under any number of percent-encodings (up to the rounds). */
function hidesKey(text: string): boolean {
  return decodings(text).some((form) => HAS_KEY_LIKE.test(form));
}

/** Whether a (raw, still encoded) query parameter name names a credential, in any case or encoding. */
function isSecretParameter(rawName: string): boolean {
  return decodings(rawName.replace(/\+/g, ' ')).some((form) => SECRET_PARAMETER.test(form.trim().toLowerCase()));
}

/** One component of a logged target: a form-decoded string, re-encoded, or `[redacted]` when it hides a key. */
function logComponent(raw: string): string {
  const decoded = decodePercent(raw.replace(/\+/g, ' '));
  if (hidesKey(raw) || hidesKey(decoded)) return REDACTED;
  return encodeURIComponent(decoded);
}

/** Characters `encodeURIComponent` leaves as they are: a query component made of them re-encodes to itself. */
function isUnreserved(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || // a-z
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x30 && c <= 0x39) || // 0-9
    c === 0x2d || // -
    c === 0x5f || // _
    c === 0x2e || // .
    c === 0x21 || // !
    c === 0x7e || // ~
    c === 0x2a || // *
    c === 0x27 || // '
    c === 0x28 || // (
    c === 0x29 // )
  );
}

/** Whether `text[at..]` starts with `%20`, the one escape the plain form allows (a space, which re-encodes the same). */
function isSpaceEscape(text: string, at: number): boolean {
  return text.charCodeAt(at) === 0x25 && text.charCodeAt(at + 1) === 0x32 && text.charCodeAt(at + 2) === 0x30;
}

/**
 * Whether the request log would write `target` as it is, decided in one pass without allocating: the path holds
 * only unreserved characters, `/` and `%20`; the query only unreserved characters and `%20` in its names and values,
 * `&` between parameters and one `=` in each; nothing reads `pf_` in any letter case; and no parameter name is a
 * credential's (`%20` decodes to a space, which neither forms `pf_` nor changes a trimmed name). Every such target
 * is its own canonical form ({@link redactRequestTarget} of it is itself; the logger's tests hold this on random
 * targets). Anything else takes the full decoding path.
 */
export function isPlainTarget(target: string): boolean {
  const n = target.length;
  let i = 0;
  // The path.
  while (i < n) {
    const c = target.charCodeAt(i);
    if (c === 0x3f) break; // ?
    if (c === 0x2f || isUnreserved(c)) i += 1;
    else if (isSpaceEscape(target, i)) i += 3;
    else return false;
  }
  // The query: name[=value] parts joined by &.
  let nameStart = i + 1;
  let inName = true;
  for (i += 1; i <= n; ) {
    const c = i === n ? 0x26 : target.charCodeAt(i);
    if (c === 0x26 || (c === 0x3d && inName)) {
      if (inName && isSecretName(target, nameStart, i)) return false;
      inName = c === 0x26;
      nameStart = i + 1;
      i += 1;
    } else if (isUnreserved(c)) i += 1;
    else if (isSpaceEscape(target, i)) i += 3;
    else return false;
  }
  return !HAS_PF.test(target);
}

const HAS_PF = /pf_/i;

/** Whether the plain name `target[from, to)` (`%20` for spaces) names a credential. */
function isSecretName(target: string, from: number, to: number): boolean {
  return SECRET_PARAMETER.test(target.slice(from, to).replaceAll('%20', ' ').trim().toLowerCase());
}

/**
 * A request target (`/path?query`, still encoded as received) as the request log writes it: every parameter name
 * and value decoded and re-encoded the one canonical way, the value of a key-bearing name (`key`, `KEY`, `%6Bey`,
 * `api_key`, …) replaced by `[redacted]`, and any name, value or path segment that holds an API key (`pf_…`, raw
 * or percent-encoded) replaced by `[redacted]` too.
 * @example redactRequestTarget('/p?vertical=glp1&%6Bey=pf%5Fabc') === '/p?vertical=glp1&key=[redacted]'
 */
export function redactRequestTarget(target: string): string {
  return isPlainTarget(target) ? target : canonicalTarget(target);
}

/** {@link redactRequestTarget} without its plain-target shortcut: every component decoded and re-encoded. */
export function canonicalTarget(target: string): string {
  const q = target.indexOf('?');
  const rawPath = q === -1 ? target : target.slice(0, q);
  const path = rawPath
    .split('/')
    .map((segment) => (hidesKey(segment) ? REDACTED : segment))
    .join('/');
  if (q === -1) return path;
  const query = target
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const rawName = eq === -1 ? part : part.slice(0, eq);
      const name = logComponent(rawName);
      if (eq === -1) return name;
      const value = isSecretParameter(rawName) ? REDACTED : logComponent(part.slice(eq + 1));
      return `${name}=${value}`;
    })
    .join('&');
  return `${path}?${query}`;
}

/**
 * Removes API keys from a free text (a message, an error, a URL inside either): each whitespace-separated word
 * that carries a query is rebuilt by {@link redactRequestTarget}, raw keys are replaced, and a word that hides a
 * percent-encoded key becomes `[redacted]`.
 */
export function redactUrl(text: string): string {
  // A plain target is also a plain word (no whitespace, no key, nothing encoded but spaces): kept as it is.
  if (isPlainTarget(text)) return text;
  return text
    .split(/(\s+)/)
    .map((word) => {
      if (word.trim() === '') return word;
      const rebuilt = word.includes('?') ? redactRequestTarget(word) : word;
      const plain = rebuilt.replace(KEY_LIKE, 'pf_[redacted]');
      return hidesKey(plain) ? REDACTED : plain;
    })
    .join('');
}

function redactValue(name: string, value: unknown): unknown {
  if (SECRET_FIELD.test(name)) return REDACTED;
  if (typeof value === 'string') return redactUrl(value);
  if (value instanceof Error)
    return { name: value.name, message: redactUrl(value.message), stack: value.stack && redactUrl(value.stack) };
  return value;
}

/** A logger writing one JSON object per line to `write` (stdout by default). */
export function createJsonLogger(
  options: { level?: LogLevel; write?: (line: string) => void; base?: LogFields } = {},
): Logger {
  const min = LOG_LEVELS.indexOf(options.level ?? 'info');
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const enabled = (level: LogLevel) => LOG_LEVELS.indexOf(level) >= min;
  const emit = (level: LogLevel, message: string, fields: LogFields = {}) => {
    if (!enabled(level)) return;
    const entry: LogFields = { level, time: new Date().toISOString(), message: redactUrl(message), ...options.base };
    for (const [name, value] of Object.entries(fields)) entry[name] = redactValue(name, value);
    write(JSON.stringify(entry));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    enabled,
  };
}

/** A logger that drops everything (tests that do not look at logs). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, enabled: () => false };
