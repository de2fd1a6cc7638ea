/**
 * The browser tests' harness: the real local server (`npm start`, in its own process group, on a free port, over a
 * new `PF_LOCAL_DIR`, so it builds the demo snapshot as it does on a clean clone), pages opened in a browser of
 * browsers.ts with everything that goes wrong recorded, screenshots, and a page of another origin that frames ours.
 *
 * A page opened with {@link openTrackedPage} records every console error (Chromium logs each Content-Security-Policy
 * violation as one), `securitypolicyviolation` event, page error, failed request, answer of 400 or more, and every
 * request to another origin than the server's (which is refused: the pages must not need the network). A test of
 * another page needs a few lines:
 *
 * ```ts
 * let server: LocalServer;
 * beforeAll(async () => { server = await startLocalServer(); }, SETUP_TIMEOUT_MS);
 * afterAll(() => server?.stop(), 30_000);
 * describeInEachBrowser('the API reference', (run) => {
 *   it('loads cleanly', async () => {
 *     const { page, problems } = await openTrackedPage(run.browser, server, '/api/v1/docs');
 *     await page.close();
 *     expect(problems).toEqual([]);
 *     expect((await saveScreenshots(run, server, '/api/v1/docs', 'docs')).problems).toEqual([]);
 *   }, PAGE_TEST_TIMEOUT_MS);
 * });
 * ```
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page, Viewport } from 'puppeteer-core';
import { ENV } from '../../data-contracts/env';
import { messageOf, type RunningBrowser } from './browsers';

const ROOT = path.resolve(__dirname, '..', '..');

/** Server start (a demo build on a clean folder), on a busy 2-core machine. */
export const SETUP_TIMEOUT_MS = 240_000;
/** One page test: loads, fetches, screenshots. */
export const PAGE_TEST_TIMEOUT_MS = 120_000;

/** Where every run saves its screenshots (gitignored). */
export const SCREENSHOT_DIR = path.join(ROOT, '.local', 'screenshots');
/** Where `PF_UPDATE_SCREENSHOTS=1` also copies them, for the README. */
export const DOCS_DIR = path.join(ROOT, 'docs');

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
} as const satisfies Record<string, Viewport>;
export type ViewportName = keyof typeof VIEWPORTS;

// ---------------------------------------------------------------------------------------------------------------
// The local server

/** `npm start`, running. */
export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The temporary `PF_LOCAL_DIR`. */
  dir: string;
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

/** The environment of the server: ours, without any `PF_*` setting of the developer's shell (a bucket, a port). */
function serverEnv(dir: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PF_')));
  return { ...env, [ENV.localDir]: dir, [ENV.port]: '0', [ENV.logLevel]: 'warn' };
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Signals the server's process group (npm, its shell, tsx and node); ESRCH when none of it is left. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Nothing of the group is left.
  }
}

/**
 * Runs `npm start` on a free port over a new temporary `PF_LOCAL_DIR` and resolves once it serves (its welcome
 * names the URL). Rejects with the server's output when it exits first or does not serve in time.
 */
export async function startLocalServer(timeoutMs = SETUP_TIMEOUT_MS - 30_000): Promise<LocalServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pf-browser-'));
  // Its own process group, so that stop() reaches the node process under npm and tsx.
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: serverEnv(dir),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const stop = async () => {
    signalGroup(child, 'SIGTERM');
    if (!(await exited(child, 10_000))) signalGroup(child, 'SIGKILL');
    // npm may exit before the server it started: end whatever is left of the group.
    signalGroup(child, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`npm start did not serve within ${timeoutMs} ms:\n${text}`)),
        timeoutMs,
      );
      const onData = (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const url = /(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(text)?.[1];
        if (url && text.includes('Ctrl-C stops the server')) {
          clearTimeout(timer);
          resolve(url);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`npm start could not be run: ${err.message}`));
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${code}) before serving:\n${text}`));
      });
    });
    return { origin, dir, output: () => text, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Pages

/** A page and what went wrong while it loaded and since. */
export interface TrackedPage {
  page: Page;
  problems: string[];
  /**
   * The status of the first answer the page got for `pathAndQuery` of the server (`/favicon.ico`), seen already or
   * within `timeoutMs`; rejects when none comes.
   */
  statusOf(pathAndQuery: string, timeoutMs?: number): Promise<number>;
}

function isOwnRequest(url: string, origin: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:')) return true;
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** The page-side name of the function that records a `securitypolicyviolation` event. */
const VIOLATION_BINDING = '__pfCspViolation';

/**
 * Reports every `securitypolicyviolation` event of every document of the page, frames included. A string: it runs
 * in the page, and the project's TypeScript has no DOM library. Injected by the DevTools protocol, so the page's
 * own CSP does not block it.
 */
const VIOLATION_LISTENER = `document.addEventListener('securitypolicyviolation', (e) => ${VIOLATION_BINDING}(
  e.effectiveDirective + ' blocked ' + (e.blockedURI || 'an inline resource') + ' at ' + e.sourceFile + ':' + e.lineNumber))`;

/**
 * Opens `pathAndQuery` of the server in a new page at `viewport`, recording every problem (see the file's comment).
 * Requests to any other origin are refused and recorded. Close the page when done.
 */
export async function openTrackedPage(
  browser: Browser,
  server: LocalServer,
  pathAndQuery: string,
  viewport: ViewportName = 'desktop',
): Promise<TrackedPage> {
  const page = await browser.newPage();
  const problems: string[] = [];
  const statuses = new Map<string, number>();
  const waiting = new Map<string, (status: number) => void>();
  await page.setViewport(VIEWPORTS[viewport]);
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (isOwnRequest(request.url(), server.origin)) {
      void request.continue();
    } else {
      problems.push(`request to another origin: ${request.url()}`);
      void request.abort('blockedbyclient');
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()} (${message.location().url ?? ''})`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${messageOf(err)}`));
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText ?? 'unknown'})`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    if (!response.url().startsWith(`${server.origin}/`)) return;
    const key = response.url().slice(server.origin.length);
    if (statuses.has(key)) return;
    statuses.set(key, response.status());
    waiting.get(key)?.(response.status());
  });
  await page.exposeFunction(VIOLATION_BINDING, (text: string) => problems.push(`CSP violation: ${text}`));
  await page.evaluateOnNewDocument(VIOLATION_LISTENER);
  const response = await page.goto(`${server.origin}${pathAndQuery}`, { waitUntil: 'load', timeout: 60_000 });
  if (response === null) problems.push(`no response for ${pathAndQuery}`);
  const statusOf = (key: string, timeoutMs = 30_000) => {
    const seen = statuses.get(key);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(key);
        reject(new Error(`the page did not ask for ${key} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiting.set(key, (status) => {
        clearTimeout(timer);
        waiting.delete(key);
        resolve(status);
      });
    });
  };
  return { page, problems, statusOf };
}

/**
 * Screenshots of the first screen of `pathAndQuery` at desktop and phone width, in `run`'s browser, saved as
 * `<SCREENSHOT_DIR>/<browser slug>/<name>-desktop.png` and `-phone.png`. `PF_UPDATE_SCREENSHOTS=1` also copies to
 * `docs/` those of the package's headless shell (or of `PF_CHROMIUM_PATH`'s browser): it ships its own fonts, so
 * the README's images do not change with the machine's. Returns the files and the problems seen while the pages
 * loaded.
 */
export async function saveScreenshots(
  run: RunningBrowser,
  server: LocalServer,
  pathAndQuery: string,
  name: string,
  /** A selector to wait for before the shot (a page that renders with a script). */
  readySelector?: string,
): Promise<{ files: Record<ViewportName, string>; problems: string[] }> {
  const dir = path.join(SCREENSHOT_DIR, run.choice.slug);
  await mkdir(dir, { recursive: true });
  const toDocs = process.env.PF_UPDATE_SCREENSHOTS === '1' && run.choice.source !== 'path';
  const files = {} as Record<ViewportName, string>;
  const problems: string[] = [];
  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    const tracked = await openTrackedPage(run.browser, server, pathAndQuery, viewport);
    try {
      const file = path.join(dir, `${name}-${viewport}.png`);
      if (readySelector !== undefined) await tracked.page.waitForSelector(readySelector, { timeout: 60_000 });
      await tracked.page.screenshot({ path: file as `${string}.png`, type: 'png' });
      if (toDocs) {
        await mkdir(DOCS_DIR, { recursive: true });
        await copyFile(file, path.join(DOCS_DIR, path.basename(file)));
      }
      files[viewport] = file;
      problems.push(...tracked.problems.map((p) => `${viewport}: ${p}`));
    } finally {
      await tracked.page.close();
    }
  }
  return { files, problems };
}

/** How a page of another origin fared when it framed two of the server's paths. */
export interface FramingResult {
  /** Where the frame of the page under test ended: its URL, or `chrome-error://chromewebdata/` when refused. */
  framed: string;
  /** Where the frame of the control path ended: its URL when framing works at all. */
  control: string;
  /** The framing page's console errors (Chromium names the directive that refused a frame). */
  consoleErrors: string[];
}

/**
 * Loads a page of another origin that frames `pathAndQuery` of the server and, beside it, `controlPath` (a path
 * that may be framed, to show that a refusal is the page's own). The framing page is served from a second loopback
 * port (another origin): Chromium refuses a page on a public address the frames of a loopback one, whatever their
 * headers say, so a page fulfilled under a made-up host name would prove nothing.
 */
export async function frameFromAnotherOrigin(
  browser: Browser,
  server: LocalServer,
  pathAndQuery: string,
  controlPath: string,
): Promise<FramingResult> {
  const framedUrl = `${server.origin}${pathAndQuery}`;
  const controlUrl = `${server.origin}${controlPath}`;
  const html =
    '<!doctype html><title>another origin</title>' +
    `<iframe name="framed" src="${framedUrl}"></iframe><iframe name="control" src="${controlUrl}"></iframe>`;
  const framer = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
  const page = await browser.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  try {
    const { port } = framer.address() as AddressInfo;
    // The load event waits for both frames, an error page included.
    await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load', timeout: 60_000 });
    const urlOf = (name: string) =>
      page
        .frames()
        .find((frame) => frame.name() === name)
        ?.url() ?? '(no frame)';
    return { framed: urlOf('framed'), control: urlOf('control'), consoleErrors };
  } finally {
    await page.close();
    framer.closeAllConnections();
    await new Promise((resolve) => framer.close(resolve));
  }
}
