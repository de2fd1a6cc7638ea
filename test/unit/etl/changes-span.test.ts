import type { ChangesStep } from '../../../data-contracts/changes';
import { keptSteps, monthsBefore, nextSpan, spanMonths } from '../../../etl/changes/span';

const step = (from: string, to: string, toAsOf: string, changes = 1): ChangesStep => ({
  from_snapshot: from,
  from_as_of: '2020-01-01T00:00:00Z',
  to_snapshot: to,
  to_as_of: toAsOf,
  changes,
});

describe('the change feed span', () => {
  it('counts calendar months back, clamping the day to the shorter month', () => {
    expect(monthsBefore('2027-12-20T05:38:00Z', 13)).toBe('2026-11-20T05:38:00Z');
    expect(monthsBefore('2027-03-31T10:00:00Z', 1)).toBe('2027-02-28T10:00:00Z');
    expect(monthsBefore('2028-03-31T00:00:00Z', 13)).toBe('2027-02-28T00:00:00Z');
    expect(monthsBefore('2026-01-15T00:00:00Z', 13)).toBe('2024-12-15T00:00:00Z');
  });

  it('keeps the steps that end within 13 months before the as-of time, dropping older ones whole', () => {
    const steps = [
      step('a', 'b', '2026-11-15T00:00:00Z'),
      step('b', 'c', '2026-11-20T00:00:00Z'),
      step('c', 'd', '2027-06-01T00:00:00Z'),
    ];
    expect(keptSteps(steps, '2027-12-20T00:00:00Z').map((s) => s.to_snapshot)).toEqual(['c', 'd']);
    expect(keptSteps(steps, '2027-12-01T00:00:00Z').map((s) => s.to_snapshot)).toEqual(['b', 'c', 'd']);
    expect(keptSteps(steps, '2029-01-01T00:00:00Z')).toEqual([]);
    expect(keptSteps([], '2027-01-01T00:00:00Z')).toEqual([]);
  });

  it('names the first kept step as the oldest since, or the snapshot itself when the chain starts', () => {
    const kept = [step('a', 'b', '2026-11-15T00:00:00Z')];
    const next = step('b', 'c', '2026-12-15T00:00:00Z', 0);
    expect(nextSpan(kept, next, { snapshot: 'c', asOf: '2026-12-15T00:00:00Z' })).toEqual({
      retention_months: 13,
      oldest_snapshot: 'a',
      oldest_as_of: '2020-01-01T00:00:00Z',
      steps: [...kept, next],
    });
    expect(nextSpan(kept, null, { snapshot: 'c', asOf: '2026-12-15T00:00:00Z' })).toEqual({
      retention_months: 13,
      oldest_snapshot: 'c',
      oldest_as_of: '2026-12-15T00:00:00Z',
      steps: [],
    });
  });

  it('lists one partition month per month of a step, in order', () => {
    const span = nextSpan(
      [step('a', 'b', '2026-11-01T00:00:00Z'), step('b', 'c', '2026-11-30T23:59:59Z')],
      step('c', 'd', '2027-01-02T00:00:00Z'),
      { snapshot: 'd', asOf: '2027-01-02T00:00:00Z' },
    );
    expect(spanMonths(span)).toEqual(['2026-11', '2027-01']);
  });
});
