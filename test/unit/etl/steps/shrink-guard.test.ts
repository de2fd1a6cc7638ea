import { reasonKind } from '../../../../etl/steps/check-rejects';
import { compareCounts, formatChange } from '../../../../etl/steps/shrink-guard';

const counts = { identity: 1000, tracked: 100, verified: 50, taxonomies: 883, rejects: 3, leie: 40, fda_letters: 500 };

describe('compareCounts', () => {
  it('flags a layer that drops by more than the share, and only that one', () => {
    const layers = compareCounts({ ...counts, identity: 899, tracked: 91 }, counts, 0.1);
    expect(layers.map((l) => [l.layer, l.current, l.next, l.shrinks])).toEqual([
      ['identity', 1000, 899, true],
      ['tracked', 100, 91, false],
      ['verified', 50, 50, false],
      ['leie', 40, 40, false],
      ['fda_letters', 500, 500, false],
    ]);
    expect(layers[0]?.change).toBeCloseTo(-0.101);
  });

  it('never flags growth, a first build, or a layer the current manifest does not count', () => {
    const { leie: _leie, fda_letters: _fda, ...older } = counts;
    expect(compareCounts({ ...counts, identity: 5000 }, counts, 0).some((l) => l.shrinks)).toBe(false);
    expect(compareCounts({ ...counts, identity: 0 }, null, 0.1).some((l) => l.shrinks)).toBe(false);
    const layers = compareCounts({ ...counts, leie: 0, fda_letters: 0 }, older, 0.1);
    expect(layers.filter((l) => l.layer === 'leie' || l.layer === 'fda_letters')).toEqual([
      { layer: 'leie', current: null, next: 0, change: null, shrinks: false },
      { layer: 'fda_letters', current: null, next: 0, change: null, shrinks: false },
    ]);
  });

  it('formats a change as a signed percentage', () => {
    expect([formatChange(-1), formatChange(0.125), formatChange(0), formatChange(null)]).toEqual([
      '-100%',
      '+12.5%',
      '0%',
      'n/a',
    ]);
  });
});

describe('reasonKind', () => {
  it('drops the row-specific value after the first colon or parenthesis', () => {
    expect(reasonKind('invalid NPI: check digit fails: 1234567890')).toBe('invalid NPI');
    expect(reasonKind('observed_at ("2026-02-30T10:00:00Z"): not a real calendar date and time')).toBe('observed_at');
    expect(reasonKind('expected 330 fields, found 331')).toBe('expected 330 fields, found 331');
  });
});
