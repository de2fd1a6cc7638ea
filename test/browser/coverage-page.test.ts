/**
 * The coverage page in every Chromium of browsers.ts, served by `npm start` over the demo snapshot it builds: it is
 * sent with its Content-Security-Policy, loads cleanly and alone under it (no CSP violation, no script error, no
 * failed request, nothing from another host) with its inline styles applied, cannot be framed, its map and figures
 * are those of coverage.json from the same server, its links answer, and it reads on a phone.
 */
import { stat } from 'node:fs/promises';
import { API_BASE_PATH } from '../../data-contracts/constants';
import { COVERAGE_PAGE_CSP } from '../../data-contracts/edge';
import { PAGE_PATHS } from '../../data-contracts/routes';
import type { CoverageStats } from '../../data-contracts/types';
import { coverageFigures, shownFigure } from '../helpers/coverage-figures';
import { describeInEachBrowser } from './browsers';
import {
  frameFromAnotherOrigin,
  type LocalServer,
  openTrackedPage,
  PAGE_TEST_TIMEOUT_MS,
  SETUP_TIMEOUT_MS,
  saveScreenshots,
  startLocalServer,
  VIEWPORTS,
} from './harness';

const PAGE = `${API_BASE_PATH}${PAGE_PATHS.coverage}`;
const COVERAGE_JSON = `${API_BASE_PATH}/coverage`;

let server: LocalServer;
let coverage: CoverageStats;

beforeAll(async () => {
  server = await startLocalServer();
  const res = await fetch(`${server.origin}${COVERAGE_JSON}`);
  coverage = (await res.json()) as CoverageStats;
}, SETUP_TIMEOUT_MS);

afterAll(() => server?.stop(), 30_000);

/** `#rrggbb` as a computed colour reads: `rgb(r, g, b)`. */
function rgbOf(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

describe('the coverage page over HTTP', () => {
  it("is sent with its Content-Security-Policy, which refuses every frame (frame-ancestors 'none'), and nosniff", async () => {
    const res = await fetch(`${server.origin}${PAGE}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy');
    expect(csp).toBe(COVERAGE_PAGE_CSP);
    expect(csp?.split(/;\s*/)).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describeInEachBrowser('the coverage page', (run) => {
  it(
    'loads with no console error, CSP violation, page error, failed request or request to another host',
    async () => {
      const { page, problems } = await openTrackedPage(run.browser, server, PAGE);
      expect(await page.title()).toBe('Provider Facts coverage');
      await page.close();
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it(
    'applies its inline styles under its CSP: the <style> element and the style attributes of the legend',
    async () => {
      const { page, problems } = await openTrackedPage(run.browser, server, PAGE);
      // A string, evaluated in the page: the project's TypeScript has no DOM library.
      const styles = (await page.evaluate(`({
        body: getComputedStyle(document.body).backgroundColor,
        card: getComputedStyle(document.querySelector('.card')).borderTopLeftRadius,
        swatches: [...document.querySelectorAll('.legend .swatch')].map((s) => ({
          attribute: s.getAttribute('style'),
          computed: getComputedStyle(s).backgroundColor,
        })),
      })`)) as { body: string; card: string; swatches: { attribute: string; computed: string }[] };
      await page.close();
      // From the <style> element (style-src 'unsafe-inline'): without it the body is transparent, the card square.
      expect(styles.body).toBe('rgb(249, 250, 251)');
      expect(styles.card).toBe('8px');
      // From each swatch's own style="background:#rrggbb" attribute.
      expect(styles.swatches.length).toBeGreaterThan(1);
      for (const swatch of styles.swatches) {
        const hex = /^background:(#[0-9a-f]{6})$/i.exec(swatch.attribute)?.[1];
        expect([swatch.attribute, swatch.computed]).toEqual([swatch.attribute, rgbOf(hex ?? '#000000')]);
      }
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it(
    "cannot be framed by a page of another origin (frame-ancestors 'none'), while coverage.json can",
    async () => {
      const framing = await frameFromAnotherOrigin(run.browser, server, PAGE, COVERAGE_JSON);
      expect(framing.framed).toMatch(/^chrome-error:/);
      expect(framing.control).toBe(`${server.origin}${COVERAGE_JSON}`);
      expect(framing.consoleErrors.join('\n')).toContain(`Framing '${server.origin}/' violates`);
      expect(framing.consoleErrors.join('\n')).toContain("frame-ancestors 'none'");
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it(
    'draws a visible shape, with its verified count, for every state of coverage.json',
    async () => {
      const { page, problems } = await openTrackedPage(run.browser, server, PAGE);
      const shapes = await page.$$eval('svg.map [data-state]', (paths) =>
        paths.map((p) => {
          const box = p.getBoundingClientRect();
          return {
            state: p.getAttribute('data-state'),
            verified: Number(p.getAttribute('data-verified')),
            visible: box.width > 0 && box.height > 0,
          };
        }),
      );
      await page.close();
      const byState = new Map(shapes.map((s) => [s.state, s]));
      const verified = new Map(coverage.verified.by_state.map((s) => [s.state, s.count]));
      const states = new Set([...coverage.tracked.by_state, ...coverage.verified.by_state].map((s) => s.state));
      expect(states.size).toBeGreaterThan(0);
      for (const state of states) {
        expect([state, byState.get(state)?.visible]).toEqual([state, true]);
        expect([state, byState.get(state)?.verified]).toEqual([state, verified.get(state) ?? 0]);
      }
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it(
    'shows the figures of coverage.json: verified count, signals, business modes, identity layer, as-of time',
    async () => {
      const { page, problems } = await openTrackedPage(run.browser, server, PAGE);
      const shown = await page.$$eval('[data-figure]', (elements) =>
        elements.map((e) => [e.getAttribute('data-figure') ?? '', e.getAttribute('datetime') ?? e.textContent ?? '']),
      );
      await page.close();
      const figures = new Map(shown as [string, string][]);
      expect(shown).toHaveLength(figures.size);
      const expected = coverageFigures(coverage);
      for (const path of [
        'verified.total',
        'verified.signals.legitscript_verified',
        'verified.business_mode.online',
        'identity_layer.total',
        'generated_at',
      ])
        expect(expected.has(path)).toBe(true);
      expect([...figures.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [path, value] of expected) expect([path, figures.get(path)]).toEqual([path, shownFigure(value)]);
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it(
    'links to the sample in JSON and CSV and to coverage.json, and each link answers 200 to the browser',
    async () => {
      const { page, problems } = await openTrackedPage(run.browser, server, PAGE);
      const hrefs = await page.$$eval('a[href]', (anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
      const links = hrefs.map((href) => new URL(href, page.url()).href);
      await page.close();
      const own = (p: string) => `${server.origin}${API_BASE_PATH}${p}`;
      expect(links).toEqual(expect.arrayContaining([own('/sample'), own('/sample?format=csv'), own('/coverage')]));
      // Fetched by the browser from a document of the same origin: the page itself may not fetch (its CSP has no
      // connect-src, so default-src 'none' refuses it), and a click on the CSV link is a download, not a page.
      const { page: json, problems: jsonProblems } = await openTrackedPage(run.browser, server, COVERAGE_JSON);
      const answers = await json.evaluate(
        (urls) =>
          Promise.all(
            urls.map(async (url) => {
              const res = await fetch(url);
              return { url, status: res.status, type: res.headers.get('content-type') };
            }),
          ),
        links,
      );
      await json.close();
      for (const answer of answers) expect([answer.url, answer.status]).toEqual([answer.url, 200]);
      expect(answers.find((a) => a.url === own('/sample?format=csv'))?.type).toMatch(/^text\/csv/);
      expect(answers.find((a) => a.url === own('/sample'))?.type).toMatch(/^application\/json/);
      expect([...problems, ...jsonProblems]).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it(
    'reads on a phone: nothing wider than the 390 px screen but the tables, which scroll in their own box',
    async () => {
      const { page, problems } = await openTrackedPage(run.browser, server, PAGE, 'phone');
      // A string, evaluated in the page: the project's TypeScript has no DOM library.
      const layout = (await page.evaluate(`({
        page: document.documentElement.scrollWidth,
        map: document.querySelector('svg.map')?.getBoundingClientRect().width ?? 0,
        viewport: document.querySelector('meta[name="viewport"]')?.getAttribute('content'),
        fontSize: Number.parseFloat(getComputedStyle(document.body).fontSize),
      })`)) as { page: number; map: number; viewport: string | null; fontSize: number };
      await page.close();
      expect(layout.page).toBeLessThanOrEqual(VIEWPORTS.phone.width);
      expect(layout.map).toBeGreaterThan(300);
      expect(layout.map).toBeLessThanOrEqual(VIEWPORTS.phone.width);
      expect(layout.viewport).toBe('width=device-width, initial-scale=1');
      expect(layout.fontSize).toBeGreaterThanOrEqual(16);
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it(
    'saves screenshots at desktop and phone width',
    async () => {
      const { files, problems } = await saveScreenshots(run, server, PAGE, 'coverage');
      for (const file of Object.values(files)) expect((await stat(file)).size).toBeGreaterThan(10_000);
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );
});
