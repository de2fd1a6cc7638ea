import {
  dataVersionFields,
  dataVersionHeaders,
  entityTag,
  ifNoneMatchHits,
  type TagInput,
} from '../../../../lambdas/http/data-version';

const version = { snapshotId: '20261015T000000Z-aaaaaaaa', asOf: '2026-10-15T00:00:00Z' };
const base: TagInput = {
  version,
  path: '/api/v1/providers',
  query: { vertical: ['glp1'], limit: ['5'] },
  principal: { plan: 'enterprise', vertical: null },
};
const tag = (over: Partial<TagInput>) => entityTag({ ...base, ...over });

describe('entityTag', () => {
  it('is strong for an unmetered plan, weak for metered JSON (its usage varies), strong for metered CSV', () => {
    expect(tag({})).toMatch(/^"[A-Za-z0-9_-]{24}"$/);
    const developer = { plan: 'developer', vertical: null } as const;
    expect(tag({ principal: developer })).toMatch(/^W\/"[A-Za-z0-9_-]{24}"$/);
    expect(tag({ principal: developer, query: { ...base.query, format: ['csv'] } })).toMatch(/^"/);
    expect(tag({ principal: { plan: 'free', vertical: null } })).toMatch(/^"/);
  });

  it('ignores the key, parameter order, empty values, an explicit format=json and a trailing slash', () => {
    const same = tag({});
    expect(tag({ query: { limit: ['5'], vertical: ['glp1'], key: ['pf_secret'] } })).toBe(same);
    expect(tag({ query: { ...base.query, state: [''], format: ['json'] } })).toBe(same);
    expect(tag({ path: '/api/v1/providers/' })).toBe(same);
  });

  it('changes with the snapshot, the path, any parameter, the format, the plan and a builder key\u2019s vertical', () => {
    const tags = [
      tag({}),
      tag({ version: { ...version, snapshotId: '20261101T000000Z-bbbbbbbb' } }),
      tag({ path: '/api/v1/providers/x' }),
      tag({ query: { vertical: ['glp1'], limit: ['6'] } }),
      tag({ query: { ...base.query, state: ['TX'] } }),
      tag({ query: { ...base.query, format: ['csv'] } }),
      tag({ principal: { plan: 'free', vertical: null } }),
      tag({ principal: { plan: 'builder', vertical: 'glp1' } }),
      tag({ principal: { plan: 'builder', vertical: 'medspa' } }),
    ];
    expect(new Set(tags.map((t) => t.replace(/^W\//, ''))).size).toBe(tags.length);
  });
});

describe('entityTag over repeated parameters', () => {
  const changes = (query: TagInput['query']) => tag({ path: '/api/v1/changes', query });
  const since = ['20261001T000000Z-aaaaaaaa'];

  it('gives every set of kind values its own tag (the change feed reads them all)', () => {
    const one = changes({ since, kind: ['oig_excluded'] });
    const two = changes({ since, kind: ['oig_excluded', 'npi_deactivated'] });
    const other = changes({ since, kind: ['npi_deactivated'] });
    expect(new Set([one, two, other]).size).toBe(3);
  });

  it('keeps an empty value among others, and a second format value, apart from the single forms', () => {
    expect(tag({ query: { ...base.query, state: ['', 'CA'] } })).not.toBe(
      tag({ query: { ...base.query, state: ['CA'] } }),
    );
    expect(tag({ query: { ...base.query, format: ['csv', 'json'] } })).not.toBe(
      tag({ query: { ...base.query, format: ['csv'] } }),
    );
  });

  it('never counts the key, however many values it has', () => {
    expect(tag({ query: { ...base.query, key: ['pf_a', 'pf_b'] } })).toBe(tag({}));
  });
});

describe('ifNoneMatchHits', () => {
  const strong = '"abc"';
  const weak = 'W/"abc"';

  it('matches by the weak comparison, in a list, and not otherwise', () => {
    expect(ifNoneMatchHits('"abc"', strong)).toBe(true);
    expect(ifNoneMatchHits('W/"abc"', strong)).toBe(true);
    expect(ifNoneMatchHits('"abc"', weak)).toBe(true);
    expect(ifNoneMatchHits('"x", W/"abc" ,"y"', weak)).toBe(true);
    expect(ifNoneMatchHits('"abd"', strong)).toBe(false);
    expect(ifNoneMatchHits('abc', strong)).toBe(false);
    expect(ifNoneMatchHits('', strong)).toBe(false);
    expect(ifNoneMatchHits(undefined, strong)).toBe(false);
  });

  it('does not honour *', () => {
    expect(ifNoneMatchHits('*', strong)).toBe(false);
  });
});

describe('the data-version fields and headers', () => {
  it('name the snapshot and its as-of time', () => {
    expect(dataVersionFields(version)).toEqual({ snapshot_id: version.snapshotId, as_of: version.asOf });
    expect(dataVersionHeaders(version, '"t"')).toEqual({
      ETag: '"t"',
      'X-Snapshot-Id': version.snapshotId,
      'X-Data-As-Of': version.asOf,
    });
  });
});
