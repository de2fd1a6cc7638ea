/**
 * The browser tests' harness: the real local server (`npm start`, in its own process group, on a free port, over a
 * new `PF_LOCAL_DIR`, so it builds the demo snapshot as it does on a clean clone) and a headless Chromium: the one
 * named by `PF_CHROMIUM_PATH`, else the machine's own (`chromium`, `chromium-browser`, `google-chrome` on PATH),
 * else the one `npm install` brings with `@sparticuz/chromium`. When none starts, {@link launchBrowser} throws
 * saying why for each: the tests fail, they never skip.
 *
 * A page opened with {@link openTrackedPage} records every console error, page error, failed request, answer of 400
 * or more, and every request to another origin than the server's (which is refused: the pages must not need the
 * network). A test of another page needs a few lines:
 *
 * ```ts
 * let server: LocalServer; let browser: Browser;
 * beforeAll(async () => ({ server, browser } = await startServerAndBrowser()), SETUP_TIMEOUT_MS);
 * afterAll(() => stopServerAndBrowser(server, browser));
 * it('loads cleanly', async () => {
 *   const { page, problems } = await openTrackedPage(browser, server, '/api/v1/docs');
 *   expect(problems).toEqual([]);
 *   await saveScreenshots(browser, server, '/api/v1/docs', 'docs');
 * }, PAGE_TEST_TIMEOUT_MS);
 * ```
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import puppeteer, { type Browser, type Page, type Viewport } from 'puppeteer-core';
import { ENV } from '../../data-contracts/env';

const ROOT = path.resolve(__dirname, '..', '..');

/** Server start (a demo build on a clean folder) and browser start, on a busy 2-core machine. */
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
// The browser

interface BrowserCandidate {
  name: string;
  executablePath: string;
  /** Extra environment of the browser process. */
  env?: Record<string, string>;
  /** Flags the binary needs on top of {@link BROWSER_ARGS}. */
  args?: string[];
}

/**
 * Flags of every browser: no sandbox (CI runs as root, where Chromium's sandbox cannot start), /tmp instead of a
 * small /dev/shm (containers), and nothing that phones home. Puppeteer adds its own defaults.
 * https://peter.sh/experiments/chromium-command-line-switches/
 */
const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-dev-shm-usage',
  '--no-pings',
  '--disable-domain-reliability',
  '--font-render-hinting=none',
];

const SYSTEM_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'] as const;

async function onPath(command: string): Promise<string | null> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.join(dir, command);
    try {
      await access(file, constants.X_OK);
      return file;
    } catch {
      // Not in this folder.
    }
  }
  return null;
}

/** The Chromium of `@sparticuz/chromium`, unpacked by a child process (sparticuz-chromium.mjs says why). */
async function sparticuzChromium(): Promise<BrowserCandidate> {
  const script = path.join(__dirname, 'sparticuz-chromium.mjs');
  const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: ROOT, timeout: 120_000 });
  const found = JSON.parse(stdout) as { executablePath: string; libDir: string; fontDir: string };
  const libraryPath = [found.libDir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return {
    name: '@sparticuz/chromium',
    executablePath: found.executablePath,
    env: { LD_LIBRARY_PATH: libraryPath, FONTCONFIG_PATH: found.fontDir },
    // The package's build is chrome-headless-shell for Lambda: no zygote process there.
    args: ['--no-zygote'],
  };
}

async function candidates(problems: string[]): Promise<BrowserCandidate[]> {
  const named = process.env.PF_CHROMIUM_PATH;
  // A browser named explicitly is the only one tried: a silent fallback would hide that it does not start.
  if (named) return [{ name: 'PF_CHROMIUM_PATH', executablePath: named }];
  const found: BrowserCandidate[] = [];
  for (const command of SYSTEM_BROWSERS) {
    const file = await onPath(command);
    if (file !== null) found.push({ name: `${command} on PATH`, executablePath: file });
  }
  try {
    found.push(await sparticuzChromium());
  } catch (err) {
    problems.push(`@sparticuz/chromium: could not unpack its binary: ${messageOf(err)}`);
  }
  return found;
}

function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n').slice(0, 4).join(' | ');
}

/**
 * Starts a headless Chromium (see the file's comment for which). Throws, naming each browser tried and why it did
 * not start, when none does.
 */
export async function launchBrowser(): Promise<Browser> {
  const problems: string[] = [];
  for (const candidate of await candidates(problems)) {
    try {
      return await puppeteer.launch({
        executablePath: candidate.executablePath,
        headless: true,
        args: [...BROWSER_ARGS, ...(candidate.args ?? [])],
        env: { ...process.env, ...candidate.env },
        timeout: 60_000,
      });
    } catch (err) {
      problems.push(`${candidate.name} (${candidate.executablePath}): ${messageOf(err)}`);
    }
  }
  throw new Error(
    [
      'No headless browser could be started for the browser tests.',
      ...(problems.length === 0 ? ['No browser was found.'] : problems.map((p) => `- ${p}`)),
      'npm install brings one (@sparticuz/chromium); or set PF_CHROMIUM_PATH to a Chromium or Chrome binary.',
    ].join('\n'),
  );
}

/** The server and a browser, started side by side; whatever started is stopped again if the other fails. */
export async function startServerAndBrowser(): Promise<{ server: LocalServer; browser: Browser }> {
  const [server, browser] = await Promise.allSettled([startLocalServer(), launchBrowser()]);
  if (server.status === 'fulfilled' && browser.status === 'fulfilled')
    return { server: server.value, browser: browser.value };
  if (server.status === 'fulfilled') await server.value.stop();
  if (browser.status === 'fulfilled') await browser.value.close();
  throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
}

export async function stopServerAndBrowser(server: LocalServer | undefined, browser: Browser | undefined) {
  await browser?.close();
  await server?.stop();
}

// ---------------------------------------------------------------------------------------------------------------
// Pages

/** A page and what went wrong while it loaded and since. */
export interface TrackedPage {
  page: Page;
  problems: string[];
}

function isOwnRequest(url: string, origin: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:')) return true;
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

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
  });
  const response = await page.goto(`${server.origin}${pathAndQuery}`, { waitUntil: 'load', timeout: 60_000 });
  if (response === null) problems.push(`no response for ${pathAndQuery}`);
  return { page, problems };
}

/**
 * Screenshots of the first screen of `pathAndQuery` at desktop and phone width, saved as
 * `<SCREENSHOT_DIR>/<name>-desktop.png` and `-phone.png` (and copied to `docs/` when `PF_UPDATE_SCREENSHOTS=1`).
 * Returns the files and the problems seen while the pages loaded.
 */
export async function saveScreenshots(
  browser: Browser,
  server: LocalServer,
  pathAndQuery: string,
  name: string,
  /** A selector to wait for before the shot (a page that renders with a script). */
  readySelector?: string,
): Promise<{ files: Record<ViewportName, string>; problems: string[] }> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const files = {} as Record<ViewportName, string>;
  const problems: string[] = [];
  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    const tracked = await openTrackedPage(browser, server, pathAndQuery, viewport);
    try {
      const file = path.join(SCREENSHOT_DIR, `${name}-${viewport}.png`);
      if (readySelector !== undefined) await tracked.page.waitForSelector(readySelector, { timeout: 60_000 });
      await tracked.page.screenshot({ path: file as `${string}.png`, type: 'png' });
      if (process.env.PF_UPDATE_SCREENSHOTS === '1') {
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
