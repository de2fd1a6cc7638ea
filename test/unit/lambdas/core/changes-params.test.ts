import fc from 'fast-check';
import { CHANGE_KINDS, type ChangesSpan } from '../../../../data-contracts/changes';
import { ApiError } from '../../../../lambdas/core/api-error';
import {
  parseChangesRequest,
  parseKinds,
  parseRoster,
  parseSince,
  resolveSince,
} from '../../../../lambdas/core/changes-params';
import { presentChange } from '../../../../lambdas/core/list-changes';
import type { ChangeRow } from '../../../../lambdas/query/types';

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof ApiError ? error.code : `not an ApiError: ${String(error)}`;
  }
}

const A = { id: '20250901T000000Z-aaaaaa', at: '2025-09-01T00:00:00Z' };
const B = { id: '20251001T120000Z-bbbbbb', at: '2025-10-01T12:00:00Z' };
const C = { id: '20251101T000000Z-cccccc', at: '2025-11-01T00:00:00Z' };
const SPAN: ChangesSpan = {
  retention_months: 13,
  oldest_snapshot: A.id,
  oldest_as_of: A.at,
  steps: [
    { from_snapshot: A.id, from_as_of: A.at, to_snapshot: B.id, to_as_of: B.at, changes: 4 },
    { from_snapshot: B.id, from_as_of: B.at, to_snapshot: C.id, to_as_of: C.at, changes: 2 },
  ],
};

describe('parseSince', () => {
  it('takes a snapshot id as it is', () => {
    expect(parseSince(B.id)).toEqual({ kind: 'snapshot', snapshotId: B.id, raw: B.id });
  });

  it('takes a date, a date-time in UTC or with an offset, and drops fractions of a second', () => {
    expect(parseSince('2025-10-01')).toMatchObject({ kind: 'time', time: '2025-10-01T00:00:00Z' });
    expect(parseSince('2025-10-01T12:00:00Z')).toMatchObject({ time: '2025-10-01T12:00:00Z' });
    expect(parseSince('2025-10-01T12:00Z')).toMatchObject({ time: '2025-10-01T12:00:00Z' });
    expect(parseSince('2025-10-01T12:00:00.999Z')).toMatchObject({ time: '2025-10-01T12:00:00Z' });
    expect(parseSince('2025-10-01T08:00:00-04:00')).toMatchObject({ time: '2025-10-01T12:00:00Z' });
    expect(parseSince('2025-10-01T00:30:00+01:00')).toMatchObject({ time: '2025-09-30T23:30:00Z' });
  });

  it.each([
    [undefined],
    ['yesterday'],
    ['2025-02-30'],
    ['2025-13-01'],
    ['2025-10-01T24:00:00Z'],
    ['2025-10-01T12:00:00'],
    ['20251001'],
    ['2025-10-01 12:00:00Z'],
    ['20251001T000000Z-BAD'],
  ])('refuses %p with 400 invalid_parameter', (raw) => {
    expect(codeOf(() => parseSince(raw))).toBe('invalid_parameter');
  });

  it('never throws anything but an ApiError, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (raw) => {
        const code = codeOf(() => parseSince(raw));
        expect(code === null || code === 'invalid_parameter').toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseKinds', () => {
  it('reads a repeated parameter and comma lists, trimmed and de-duplicated; none is null', () => {
    expect(parseKinds(['oig_excluded, npi_deactivated', 'oig_excluded'])).toEqual(['oig_excluded', 'npi_deactivated']);
    expect(parseKinds([])).toBeNull();
    expect(parseKinds(['', ' , '])).toBeNull();
    expect(parseKinds([...CHANGE_KINDS])).toEqual([...CHANGE_KINDS]);
  });

  it('refuses an unknown kind naming the closest one', () => {
    try {
      parseKinds(['oig_exclude']);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('invalid_parameter');
      expect((error as ApiError).details.hint).toContain('Did you mean `oig_excluded`?');
    }
  });
});

describe('parseRoster', () => {
  it('keeps valid NPIs in order, de-duplicated; absent or empty is null', () => {
    expect(parseRoster('1003633876, 1114636115,1003633876')).toEqual(['1003633876', '1114636115']);
    expect(parseRoster(undefined)).toBeNull();
    expect(parseRoster(' ')).toBeNull();
  });

  it('refuses a malformed NPI with invalid_npi naming it, and more than 100 with invalid_parameter', () => {
    try {
      parseRoster('1003633876,1234567890');
      throw new Error('accepted');
    } catch (error) {
      expect((error as ApiError).code).toBe('invalid_npi');
      expect((error as ApiError).message).toContain('1234567890');
    }
    expect(codeOf(() => parseRoster(Array.from({ length: 101 }, () => '1003633876').join(',')))).toBe(
      'invalid_parameter',
    );
  });
});

describe('parseChangesRequest', () => {
  it('reads every parameter, with the list defaults', () => {
    expect(
      parseChangesRequest({ since: A.id, vertical: 'glp1', limit: '10', format: 'csv' }, ['signal_changed']),
    ).toEqual({
      since: { kind: 'snapshot', snapshotId: A.id, raw: A.id },
      kinds: ['signal_changed'],
      npis: null,
      vertical: 'glp1',
      limit: 10,
      offset: 0,
      format: 'csv',
    });
    expect(codeOf(() => parseChangesRequest({ since: A.id, vertical: 'cats' }, []))).toBe('invalid_vertical');
    expect(codeOf(() => parseChangesRequest({ since: A.id, limit: '0' }, []))).toBe('invalid_limit');
    expect(codeOf(() => parseChangesRequest({ since: '' }, []))).toBe('invalid_parameter');
  });
});

describe('resolveSince', () => {
  it('starts from the snapshot named, or the last one at or before the time named', () => {
    expect(resolveSince(parseSince(A.id), SPAN)).toEqual({ snapshotId: A.id, asOf: A.at });
    expect(resolveSince(parseSince(B.id), SPAN)).toEqual({ snapshotId: B.id, asOf: B.at });
    expect(resolveSince(parseSince(C.id), SPAN)).toEqual({ snapshotId: C.id, asOf: C.at });
    expect(resolveSince(parseSince('2025-09-01'), SPAN)).toEqual({ snapshotId: A.id, asOf: A.at });
    expect(resolveSince(parseSince('2025-10-01T11:59:59Z'), SPAN)).toEqual({ snapshotId: A.id, asOf: A.at });
    expect(resolveSince(parseSince('2025-10-01T12:00:00Z'), SPAN)).toEqual({ snapshotId: B.id, asOf: B.at });
    expect(resolveSince(parseSince('2030-01-01'), SPAN)).toEqual({ snapshotId: C.id, asOf: C.at });
  });

  it('refuses a since older than kept with since_too_old, naming the oldest', () => {
    for (const raw of ['2025-08-31T23:59:59Z', '20250801T000000Z-zzzzzz']) {
      try {
        resolveSince(parseSince(raw), SPAN);
        throw new Error('accepted');
      } catch (error) {
        expect((error as ApiError).code).toBe('since_too_old');
        expect((error as ApiError).message).toContain(A.id);
        expect((error as ApiError).message).toContain(A.at);
      }
    }
  });

  it('refuses a snapshot id within the span that is not in the chain', () => {
    expect(codeOf(() => resolveSince(parseSince('20251015T000000Z-dddddd'), SPAN))).toBe('invalid_parameter');
  });

  it('answers a snapshot without a kept span only for itself or later times', () => {
    const none: ChangesSpan = { retention_months: 13, oldest_snapshot: C.id, oldest_as_of: C.at, steps: [] };
    expect(resolveSince(parseSince(C.id), none)).toEqual({ snapshotId: C.id, asOf: C.at });
    expect(codeOf(() => resolveSince(parseSince(B.id), none))).toBe('since_too_old');
  });
});

describe('presentChange', () => {
  const row = (over: Partial<ChangeRow>): ChangeRow => ({
    kind: 'signal_changed',
    npi: null,
    entity_id: 'glp1-0001',
    vertical: 'glp1',
    field: 'certification',
    old_value: '"verified"',
    new_value: '"flagged"',
    from_snapshot: A.id,
    from_as_of: A.at,
    to_snapshot: B.id,
    to_as_of: B.at,
    ...over,
  });

  it('parses the values for a paid key and locks paid ones for a free key', () => {
    expect(presentChange(row({}), 'paid')).toMatchObject({ old: 'verified', new: 'flagged' });
    const free = presentChange(row({}), 'free');
    expect(free.old).toMatchObject({ locked: true });
    expect(free.new).toMatchObject({ locked: true });
    expect(free).toMatchObject({ kind: 'signal_changed', field: 'certification', entity_id: 'glp1-0001' });
  });

  it('keeps free values for a free key and notes what an OIG change cannot say', () => {
    const renamed = presentChange(
      row({
        kind: 'name_changed',
        npi: '1003633876',
        entity_id: null,
        vertical: null,
        field: 'name',
        old_value: '"A"',
        new_value: '"B"',
      }),
      'free',
    );
    expect(renamed).toMatchObject({ old: 'A', new: 'B' });
    expect(renamed.note).toBeUndefined();
    const removed = presentChange(
      row({
        kind: 'oig_removed',
        npi: '1003633876',
        entity_id: null,
        vertical: null,
        field: null,
        old_value: '{"type":"1128a1","date":"2020-01-01"}',
        new_value: null,
      }),
      'free',
    );
    expect(removed).toMatchObject({ old: { type: '1128a1', date: '2020-01-01' }, new: null });
    expect(removed.note).toContain('not a clearance');
  });
});
