/**
 * The API reference (`/api/v1/docs`, Redoc from our own origin) in every Chromium of browsers.ts, served by
 * `npm start`: it loads cleanly and alone (no console error, no CSP violation, no failed request, nothing from
 * another host), lists every operation of the OpenAPI document in the main panel and in the sidebar, and cannot be
 * framed. A full Chromium asks for `/favicon.ico`, as a reader's browser does: the API answers it 204.
 */
import { API_BASE_PATH } from '../../data-contracts/constants';
import { FAVICON_CACHE_CONTROL, FAVICON_PATH } from '../../data-contracts/edge';
import { openApiDocument } from '../../data-contracts/openapi';
import { describeInEachBrowser } from './browsers';
import {
  frameFromAnotherOrigin,
  type LocalServer,
  openTrackedPage,
  PAGE_TEST_TIMEOUT_MS,
  SETUP_TIMEOUT_MS,
  saveScreenshots,
  startLocalServer,
} from './harness';

const PAGE = `${API_BASE_PATH}/docs`;

/** Every operation of the document: its operationId and summary. */
const OPERATIONS = Object.values(
  openApiDocument.paths as Record<string, { get: { operationId: string; summary: string } }>,
).map((item) => ({ id: item.get.operationId, summary: item.get.summary }));

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer();
}, SETUP_TIMEOUT_MS);

afterAll(() => server?.stop(), 30_000);

describe("the origin's favicon", () => {
  it('answers /favicon.ico with 204, no body and a day of caching, so a browser neither logs an error nor asks again', async () => {
    const res = await fetch(`${server.origin}${FAVICON_PATH}`);
    expect(res.status).toBe(204);
    expect(res.headers.get('cache-control')).toBe(FAVICON_CACHE_CONTROL);
    expect(await res.text()).toBe('');
  });
});

describeInEachBrowser('the API reference', (run) => {
  it(
    'loads with no console error, CSP violation, failed request or request to another host, lists every operation, and answers a full browser’s /favicon.ico with 204',
    async () => {
      const { page, problems, statusOf } = await openTrackedPage(run.browser, server, PAGE);
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
      // chrome-headless-shell never asks for an icon; a full Chromium does once the page has loaded (the request
      // that logged a 404 before the API answered it). Waiting for it also keeps its answer inside `problems`.
      if (run.full) expect(await statusOf(FAVICON_PATH)).toBe(204);
      await page.close();
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it(
    "cannot be framed by a page of another origin (frame-ancestors 'none'), while the OpenAPI document can",
    async () => {
      const framing = await frameFromAnotherOrigin(run.browser, server, PAGE, `${API_BASE_PATH}/openapi.json`);
      expect(framing.framed).toMatch(/^chrome-error:/);
      expect(framing.control).toBe(`${server.origin}${API_BASE_PATH}/openapi.json`);
      expect(framing.consoleErrors.join('\n')).toContain(`Framing '${server.origin}/' violates`);
      expect(framing.consoleErrors.join('\n')).toContain("frame-ancestors 'none'");
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it(
    'saves screenshots at desktop and phone widths',
    async () => {
      const { problems } = await saveScreenshots(run, server, PAGE, 'docs', '[data-section-id^="operation/"]');
      expect(problems).toEqual([]);
    },
    PAGE_TEST_TIMEOUT_MS,
  );
});
