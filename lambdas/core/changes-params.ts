/**
 * Parsing of `GET /changes` (data-contracts/changes.ts): `since`, `kind` (repeatable or comma list), `npi` (a
 * roster), `vertical`, and the list's `limit`, `offset`, `format`; and the resolution of `since` against the span the
 * current snapshot keeps. Pure functions with no HTTP types.
 */
import { CHANGE_KINDS, type ChangeKind, type ChangesSpan } from '../../data-contracts/changes';
import { isSnapshotId } from '../../data-contracts/layout';
import { ApiError } from './api-error';
import { closestParameter } from './closest-name';
import { parseNpiRoster } from './npi-params';
import { type Format, parseFormat, parseLimit, parseOffset, parseVertical, type RawQuery } from './params';

/** What `since` names: a snapshot of the chain, or a time (ISO 8601 in UTC, to the second). */
export type Since = { kind: 'snapshot'; snapshotId: string; raw: string } | { kind: 'time'; time: string; raw: string };

export interface ChangesRequest {
  since: Since;
  kinds: ChangeKind[] | null;
  npis: string[] | null;
  vertical: ReturnType<typeof parseVertical>;
  limit: number;
  offset: number;
  format: Format;
}

const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const DATE_TIME =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:[0-9]{2})$/;
const SINCE_HINT =
  'Pass the snapshot_id of an earlier answer (e.g. 20261101T000000Z-ez401deg), or a UTC date or date-time ' +
  '(2026-11-01, 2026-11-01T00:00:00Z).';

function calendarTime(y: string, mo: string, d: string, h = '00', mi = '00', s = '00', zone = 'Z'): string | null {
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Day 31 of a 30-day month rolls over: refused, not moved.
  if (local.getUTCDate() !== day || local.getUTCMonth() !== month - 1) return null;
  let ms = local.getTime();
  if (zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const [zh, zm] = zone.slice(1).split(':').map(Number) as [number, number];
    if (zh > 23 || zm > 59) return null;
    ms -= sign * (zh * 60 + zm) * 60_000;
  }
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/**
 * `since`: a snapshot id, or a date or date-time (fractions of a second dropped, offsets converted to UTC).
 * @example parseSince('2026-11-01') // { kind: 'time', time: '2026-11-01T00:00:00Z', raw: '2026-11-01' }
 */
export function parseSince(raw: string | undefined): Since {
  if (raw === undefined) {
    throw new ApiError('invalid_parameter', 'since is required: a snapshot id or a date.', { hint: SINCE_HINT });
  }
  if (isSnapshotId(raw)) return { kind: 'snapshot', snapshotId: raw, raw };
  const date = DATE.exec(raw);
  const dateTime = DATE_TIME.exec(raw);
  const time = date
    ? calendarTime(date[1] as string, date[2] as string, date[3] as string)
    : dateTime
      ? calendarTime(
          dateTime[1] as string,
          dateTime[2] as string,
          dateTime[3] as string,
          dateTime[4],
          dateTime[5],
          dateTime[6] ?? '00',
          dateTime[7],
        )
      : null;
  if (time === null) {
    throw new ApiError('invalid_parameter', 'since must be a snapshot id or a valid ISO 8601 date or date-time.', {
      hint: SINCE_HINT,
    });
  }
  return { kind: 'time', time, raw };
}

/**
 * `kind`: every value of the repeated parameter, each a comma list; null when absent. An unknown kind is 400
 * `invalid_parameter` with the closest kind.
 */
export function parseKinds(values: readonly string[]): ChangeKind[] | null {
  const kinds = values
    .flatMap((v) => v.split(','))
    .map((k) => k.trim())
    .filter((k) => k !== '');
  if (kinds.length === 0) return null;
  const known = CHANGE_KINDS as readonly string[];
  for (const kind of kinds) {
    if (known.includes(kind)) continue;
    const closest = closestParameter(kind, CHANGE_KINDS);
    const list = `Kinds: ${CHANGE_KINDS.join(', ')}.`;
    throw new ApiError(
      'invalid_parameter',
      `Unknown change kind \`${JSON.stringify(kind.slice(0, 40)).slice(1, -1)}\`.`,
      {
        hint: closest === null ? list : `Did you mean \`${closest}\`? ${list}`,
      },
    );
  }
  return [...new Set(kinds)] as ChangeKind[];
}

/** `npi`: a roster (npi-params.ts `parseNpiRoster`); null when absent or blank. */
export function parseRoster(raw: string | undefined): string[] | null {
  return raw === undefined || raw.trim() === '' ? null : parseNpiRoster(raw, 'npi');
}

/** The whole request; `kinds` are every value of the repeated `kind` parameter. */
export function parseChangesRequest(query: RawQuery, kindValues: readonly string[]): ChangesRequest {
  const value = (name: string) => (query[name] === '' ? undefined : query[name]);
  const request: ChangesRequest = {
    since: parseSince(value('since')),
    kinds: parseKinds(kindValues),
    npis: parseRoster(value('npi')),
    vertical: parseVertical(value('vertical')),
    limit: parseLimit(value('limit')),
    offset: parseOffset(value('offset')),
    format: parseFormat(value('format')),
  };
  return request;
}

/** One snapshot of the kept chain. */
interface ChainSnapshot {
  snapshotId: string;
  asOf: string;
}

/** The chain's snapshots, oldest first: the oldest kept, then each step's target. */
function chainOf(span: ChangesSpan): ChainSnapshot[] {
  return [
    { snapshotId: span.oldest_snapshot, asOf: span.oldest_as_of },
    ...span.steps.map((s) => ({ snapshotId: s.to_snapshot, asOf: s.to_as_of })),
  ];
}

/** The time a snapshot id carries (`20261101T000000Z-…` is 2026-11-01T00:00:00Z). */
function timeOfSnapshotId(id: string): string {
  return `${id.slice(0, 4)}-${id.slice(4, 6)}-${id.slice(6, 8)}T${id.slice(9, 11)}:${id.slice(11, 13)}:${id.slice(13, 15)}Z`;
}

function tooOld(since: Since, span: ChangesSpan): ApiError {
  return new ApiError(
    'since_too_old',
    `since ${JSON.stringify(since.raw)} is older than the changes kept (${span.retention_months} months): the ` +
      `oldest since answered is ${span.oldest_snapshot} (${span.oldest_as_of}).`,
    {
      hint:
        `Re-screen the whole roster (GET /npi?numbers=…) as of now, then ask /changes?since=<the snapshot_id of that ` +
        `answer> from then on; or ask since=${span.oldest_snapshot} for what is kept.`,
    },
  );
}

/**
 * The snapshot the answer starts from: the snapshot `since` names, or the last one at or before the time it names.
 * Throws 400 `since_too_old` before the oldest kept, and 400 `invalid_parameter` for a snapshot id that is not in the
 * chain.
 */
export function resolveSince(since: Since, span: ChangesSpan): ChainSnapshot {
  const chain = chainOf(span);
  if (since.kind === 'snapshot') {
    const found = chain.find((s) => s.snapshotId === since.snapshotId);
    if (found !== undefined) return found;
    if (timeOfSnapshotId(since.snapshotId) < span.oldest_as_of) throw tooOld(since, span);
    throw new ApiError(
      'invalid_parameter',
      `since names a snapshot that is not in the kept chain (${span.oldest_snapshot} to ${
        (chain[chain.length - 1] as ChainSnapshot).snapshotId
      }).`,
      { hint: `Use a snapshot_id from an answer of this API, or a date. ${SINCE_HINT}` },
    );
  }
  if (since.time < span.oldest_as_of) throw tooOld(since, span);
  let from = chain[0] as ChainSnapshot;
  for (const snapshot of chain) if (snapshot.asOf <= since.time) from = snapshot;
  return from;
}
