/**
 * The browsers the page tests run in: every Chromium this machine has, each in its own run of the same tests.
 *
 * - `@sparticuz/chromium`, which `npm install` brings: chrome-headless-shell, with the NSS libraries and fonts the
 *   package ships, so it needs nothing from apt. Always there: `npm test` works on any machine.
 * - each full Chromium or Chrome on `PATH` (`chromium`, `chromium-browser`, `google-chrome`, ...), e.g. Debian's
 *   `chromium`, which .ci/run installs: the browser a person uses, in its headless mode. Unlike the headless shell
 *   it does what a reader's browser does (it asks for `/favicon.ico`, for one), so its run sees those requests too.
 *
 * `PF_CHROMIUM_PATH` names the one browser to use instead. A browser that is found but does not start fails its
 * tests, saying why: a test never falls back to another browser, nor skips. `PF_REQUIRE_FULL_BROWSER=1` (set by
 * .ci/run) makes harness.test.ts fail when no full Chromium is on `PATH`; without it that test says in its name
 * and output that the pages ran in the headless shell alone.
 *
 * ```ts
 * describeInEachBrowser('the API reference', (run) => {
 *   it('loads cleanly', async () => {
 *     const { problems } = await openTrackedPage(run.browser, server, '/api/v1/docs');
 *     expect(problems).toEqual([]);
 *   }, PAGE_TEST_TIMEOUT_MS);
 * });
 * ```
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import puppeteer, { type Browser } from 'puppeteer-core';

const ROOT = path.resolve(__dirname, '..', '..');

/** Unpacking the package's browser (first use on a machine) and starting a browser, on a busy 2-core machine. */
export const BROWSER_START_TIMEOUT_MS = 180_000;

/** Where a browser comes from; the package's and a named one are the ones `docs/` screenshots come from. */
export type BrowserSource = 'named' | 'path' | 'package';

/** A browser found on this machine, not yet started. */
export interface BrowserChoice {
  /** For test names: `chromium on PATH (/usr/bin/chromium)`, `@sparticuz/chromium (headless shell)`. */
  name: string;
  /** For file names: `chromium`, `sparticuz-chromium`. */
  slug: string;
  source: BrowserSource;
  /** The binary, when it is known before start (the package's is unpacked then). */
  executablePath?: string;
}

/** What a browser's binary needs to start. */
interface Launchable {
  executablePath: string;
  /** Extra environment of the browser process. */
  env?: Record<string, string>;
  /** Flags the binary needs on top of {@link BROWSER_ARGS}. */
  args?: string[];
}

/**
 * Flags of every browser: no sandbox (CI runs as root, where Chromium's sandbox cannot start), /tmp instead of a
 * small /dev/shm (containers), and nothing that phones home (the machine's network refuses it). Puppeteer adds its
 * own defaults (--disable-background-networking, --disable-component-update, --no-first-run, ...).
 * https://peter.sh/experiments/chromium-command-line-switches/
 */
const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-dev-shm-usage',
  '--no-pings',
  '--disable-domain-reliability',
  '--font-render-hinting=none',
];

/** Full browsers looked for on PATH, in this order. */
export const SYSTEM_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'] as const;

const PACKAGE_CHOICE: BrowserChoice = {
  name: '@sparticuz/chromium (headless shell)',
  slug: 'sparticuz-chromium',
  source: 'package',
};

/** The executable file `command` names on PATH, or null. Synchronous: Jest declares its tests synchronously. */
function onPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.join(dir, command);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not in this folder.
    }
  }
  return null;
}

/**
 * The browsers to run the page tests in, found now (see the file's comment): the one `PF_CHROMIUM_PATH` names, else
 * every full Chromium on PATH (one per binary: `chromium-browser` may link to `chromium`) and the package's.
 */
export function findBrowsers(): BrowserChoice[] {
  const named = process.env.PF_CHROMIUM_PATH;
  // A browser named explicitly is the only one: a silent fallback would hide that it does not start.
  if (named) return [{ name: `PF_CHROMIUM_PATH (${named})`, slug: 'named', source: 'named', executablePath: named }];
  const found: BrowserChoice[] = [];
  const binaries = new Set<string>();
  for (const command of SYSTEM_BROWSERS) {
    const file = onPath(command);
    if (file === null) continue;
    const binary = realpathSync(file);
    if (binaries.has(binary)) continue;
    binaries.add(binary);
    found.push({ name: `${command} on PATH (${file})`, slug: command, source: 'path', executablePath: file });
  }
  return [...found, PACKAGE_CHOICE];
}

/** The Chromium of `@sparticuz/chromium`, unpacked by a child process (sparticuz-chromium.mjs says why). */
async function packageBrowser(): Promise<Launchable> {
  const script = path.join(__dirname, 'sparticuz-chromium.mjs');
  const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: ROOT, timeout: 120_000 });
  const found = JSON.parse(stdout) as { executablePath: string; libDir: string; fontDir: string };
  const libraryPath = [found.libDir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return {
    executablePath: found.executablePath,
    env: { LD_LIBRARY_PATH: libraryPath, FONTCONFIG_PATH: found.fontDir },
    // The package's build is chrome-headless-shell for Lambda: no zygote process there.
    args: ['--no-zygote'],
  };
}

async function launchableOf(choice: BrowserChoice): Promise<Launchable> {
  if (choice.executablePath !== undefined) return { executablePath: choice.executablePath };
  try {
    return await packageBrowser();
  } catch (err) {
    throw new Error(`could not unpack its binary: ${messageOf(err)}`, { cause: err });
  }
}

/** The first lines of an error's message, on one line. */
export function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n').slice(0, 4).join(' | ');
}

/** A started browser and what it is. */
export interface RunningBrowser {
  choice: BrowserChoice;
  browser: Browser;
  /** As the browser reports it: `Chrome/156.0.8078.108`, `HeadlessChrome/153.0.8010.0`. */
  version: string;
  /** A full Chromium (in its headless mode), not chrome-headless-shell: it asks for what a reader's browser does. */
  full: boolean;
}

/**
 * Starts `choice` headless. Throws, naming the browser and why, when it does not start.
 * @example const { browser, full } = await launchBrowser(findBrowsers()[0]);
 */
export async function launchBrowser(choice: BrowserChoice): Promise<RunningBrowser> {
  try {
    const launchable = await launchableOf(choice);
    const browser = await puppeteer.launch({
      executablePath: launchable.executablePath,
      headless: true,
      args: [...BROWSER_ARGS, ...(launchable.args ?? [])],
      env: { ...process.env, ...launchable.env },
      timeout: 60_000,
    });
    const version = await browser.version();
    // chrome-headless-shell names itself HeadlessChrome; a full Chromium says Chrome even when headless.
    return { choice, browser, version, full: !version.startsWith('HeadlessChrome/') };
  } catch (err) {
    throw new Error(
      [
        `The browser tests' browser ${choice.name} did not start: ${messageOf(err)}`,
        'The page tests run in every Chromium on PATH and in the one npm install brings (@sparticuz/chromium);',
        'set PF_CHROMIUM_PATH to a Chromium or Chrome binary to run them in that one alone.',
      ].join('\n'),
      { cause: err },
    );
  }
}

/** Whether .ci/run asked for a full Chromium (`PF_REQUIRE_FULL_BROWSER=1`). */
export function fullBrowserRequired(): boolean {
  return process.env.PF_REQUIRE_FULL_BROWSER === '1';
}

/**
 * Declares `suite` once for each browser of {@link findBrowsers}, in a describe named after it that starts the
 * browser before its tests and closes it after (one browser per run, so a file never holds two at once). The
 * tests read the started browser from `run`, which is filled in before the first of them.
 */
export function describeInEachBrowser(title: string, suite: (run: RunningBrowser) => void): void {
  for (const choice of findBrowsers()) {
    describe(`${title}, in ${choice.name}`, () => {
      // Filled by beforeAll; the tests only read it once it is.
      const run = { choice } as RunningBrowser;
      beforeAll(async () => {
        Object.assign(run, await launchBrowser(choice));
      }, BROWSER_START_TIMEOUT_MS);
      afterAll(async () => {
        await run.browser?.close();
      }, 30_000);
      suite(run);
    });
  }
}
