/**
 * The API reference (`/api/v1/docs`, Redoc from our own origin) in a real headless Chromium, served by `npm start`:
 * it loads cleanly and alone (no console error, no failed request, nothing from another host) and lists every
 * operation of the OpenAPI document, in the main panel and in the sidebar.
 */
import type { Browser } from 'puppeteer-core';
import { API_BASE_PATH } from '../../data-contracts/constants';
import { openApiDocument } from '../../data-contracts/openapi';
import {
  type LocalServer,
  openTrackedPage,
  PAGE_TEST_TIMEOUT_MS,
  SETUP_TIMEOUT_MS,
  saveScreenshots,
  startServerAndBrowser,
  stopServerAndBrowser,
} from './harness';

const PAGE = `${API_BASE_PATH}/docs`;

/** Every operation of the document: its operationId and summary. */
const OPERATIONS = Object.values(
  openApiDocument.paths as Record<string, { get: { operationId: string; summary: string } }>,
).map((item) => ({ id: item.get.operationId, summary: item.get.summary }));

let server: LocalServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
}, SETUP_TIMEOUT_MS);

afterAll(() => stopServerAndBrowser(server, browser), 30_000);

describe('the API reference in a browser', () => {
  it(
    'loads with no console error, page error, failed request or request to another host, and lists every operation',
    async () => {
      const { page, problems } = await openTrackedPage(browser, server, PAGE);
      await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 60_000 });
      expect(await page.title()).toBe('Provider Facts Data API reference');
      const shown = await page.$$eval('[data-section-id^="operation/"]', (sections) =>
        sections.map((s) => ({
          id: String(s.getAttribute('data-section-id')).replace('operation/', ''),
          summary: (s.querySelector('h2')?.textContent ?? '').trim(),
        })),
      );
      const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
      expect(shown.sort(byId)).toEqual([...OPERATIONS].sort(byId));
      const sidebar = await page.$$eval('li[data-item-id*="/operation/"]', (items) =>
        items.map((li) => String(li.getAttribute('data-item-id')).split('/operation/')[1]),
      );
      expect([...new Set(sidebar)].sort()).toEqual(OPERATIONS.map((o) => o.id).sort());
      await page.close();
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it(
    'saves screenshots at desktop and phone widths',
    async () => {
      const { problems } = await saveScreenshots(browser, server, PAGE, 'docs', '[data-section-id^="operation/"]');
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );
});
