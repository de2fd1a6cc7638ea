/**
 * The coverage page in a real headless Chromium, served by `npm start` over the demo snapshot it builds: it loads
 * cleanly and alone (no script error, no failed request, nothing from another host), its map and figures are those
 * of coverage.json from the same server, its links answer, and it reads on a phone.
 */
import { stat } from 'node:fs/promises';
import type { Browser } from 'puppeteer-core';
import { API_BASE_PATH } from '../../data-contracts/constants';
import { PAGE_PATHS } from '../../data-contracts/routes';
import type { CoverageStats } from '../../data-contracts/types';
import { coverageFigures, shownFigure } from '../helpers/coverage-figures';
import {
  type LocalServer,
  openTrackedPage,
  PAGE_TEST_TIMEOUT_MS,
  SETUP_TIMEOUT_MS,
  saveScreenshots,
  startServerAndBrowser,
  stopServerAndBrowser,
  VIEWPORTS,
} from './harness';

const PAGE = `${API_BASE_PATH}${PAGE_PATHS.coverage}`;

let server: LocalServer;
let browser: Browser;
let coverage: CoverageStats;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  const res = await fetch(`${server.origin}${API_BASE_PATH}/coverage`);
  coverage = (await res.json()) as CoverageStats;
}, SETUP_TIMEOUT_MS);

afterAll(() => stopServerAndBrowser(server, browser), 30_000);

describe('the coverage page in a browser', () => {
  it(
    'loads with no console error, page error, failed request or request to another host',
    async () => {
      const { page, problems } = await openTrackedPage(browser, server, PAGE);
      expect(await page.title()).toBe('Provider Facts coverage');
      await page.close();
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it(
    'draws a visible shape, with its verified count, for every state of coverage.json',
    async () => {
      const { page, problems } = await openTrackedPage(browser, server, PAGE);
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
      const { page, problems } = await openTrackedPage(browser, server, PAGE);
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
      const { page, problems } = await openTrackedPage(browser, server, PAGE);
      const hrefs = await page.$$eval('a[href]', (anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
      const links = hrefs.map((href) => new URL(href, page.url()).href);
      const own = (p: string) => `${server.origin}${API_BASE_PATH}${p}`;
      expect(links).toEqual(expect.arrayContaining([own('/sample'), own('/sample?format=csv'), own('/coverage')]));
      // Fetched by the page itself: the same origin, the same requests a reader's click makes.
      const answers = await page.evaluate(
        (urls) =>
          Promise.all(
            urls.map(async (url) => {
              const res = await fetch(url);
              return { url, status: res.status, type: res.headers.get('content-type') };
            }),
          ),
        links,
      );
      await page.close();
      for (const answer of answers) expect([answer.url, answer.status]).toEqual([answer.url, 200]);
      expect(answers.find((a) => a.url === own('/sample?format=csv'))?.type).toMatch(/^text\/csv/);
      expect(answers.find((a) => a.url === own('/sample'))?.type).toMatch(/^application\/json/);
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it(
    'reads on a phone: nothing wider than the 390 px screen but the tables, which scroll in their own box',
    async () => {
      const { page, problems } = await openTrackedPage(browser, server, PAGE, 'phone');
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
      const { files, problems } = await saveScreenshots(browser, server, PAGE, 'coverage');
      for (const file of Object.values(files)) expect((await stat(file)).size).toBeGreaterThan(10_000);
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );
});
