/**
 * The browsers the page tests run in (browsers.ts): each one found starts and is what it is taken for, a browser
 * that does not start fails naming itself, and whether a full Chromium ran the pages is always said, never left out.
 */
import {
  BROWSER_START_TIMEOUT_MS,
  type BrowserChoice,
  findBrowsers,
  fullBrowserRequired,
  launchBrowser,
  SYSTEM_BROWSERS,
} from './browsers';

const browsers = findBrowsers();
const fullOnPath = browsers.filter((b) => b.source === 'path');

describe('the browsers of the page tests', () => {
  const saved = process.env.PF_CHROMIUM_PATH;
  afterEach(() => {
    if (saved === undefined) delete process.env.PF_CHROMIUM_PATH;
    else process.env.PF_CHROMIUM_PATH = saved;
  });

  const kind = (choice: BrowserChoice) =>
    choice.source === 'path' ? 'a full Chromium' : choice.source === 'package' ? 'chrome-headless-shell' : 'a Chromium';
  for (const choice of browsers) {
    it(
      `start ${choice.name}, which reports itself as ${kind(choice)}`,
      async () => {
        const run = await launchBrowser(choice);
        try {
          expect(run.version).toMatch(/^(Headless)?Chrome\/\d+\./);
          if (choice.source === 'path') expect([run.version, run.full]).toEqual([run.version, true]);
          if (choice.source === 'package') expect([run.version, run.full]).toEqual([run.version, false]);
        } finally {
          await run.browser.close();
        }
      },
      BROWSER_START_TIMEOUT_MS,
    );
  }

  if (fullOnPath.length > 0) {
    it(`include a full Chromium, as a reader's browser: ${fullOnPath.map((b) => b.name).join(', ')}`, () => {
      expect(browsers.map((b) => b.source)).toEqual([...fullOnPath.map(() => 'path'), 'package']);
    });
  } else if (fullBrowserRequired()) {
    it('include a full Chromium on PATH, as PF_REQUIRE_FULL_BROWSER=1 (.ci/run) requires', () => {
      throw new Error(
        `No full Chromium on PATH (looked for ${SYSTEM_BROWSERS.join(', ')}); found: ${browsers
          .map((b) => b.name)
          .join(', ')}. .ci/run installs Debian's: apt-get install -y --no-install-recommends chromium.`,
      );
    });
  } else {
    it('include no full Chromium: none is on PATH, so the pages ran in the headless shell alone', () => {
      // Said in the output too, where a run that is not verbose shows no test names.
      console.warn(
        'The page tests ran in @sparticuz/chromium (chrome-headless-shell) alone: no full Chromium is on PATH. ' +
          'apt-get install chromium adds a run in the browser a reader uses (it asks for /favicon.ico, for one).',
      );
      expect(browsers.map((b) => b.source)).toEqual(['package']);
    });
  }

  it('fail, naming the browser and why, when the one named by PF_CHROMIUM_PATH cannot start (never a skip)', async () => {
    process.env.PF_CHROMIUM_PATH = '/nonexistent/chromium';
    const named = findBrowsers();
    expect(named.map((b) => b.name)).toEqual(['PF_CHROMIUM_PATH (/nonexistent/chromium)']);
    const [choice] = named as [BrowserChoice];
    const failure = launchBrowser(choice);
    await expect(failure).rejects.toThrow(
      "The browser tests' browser PF_CHROMIUM_PATH (/nonexistent/chromium) did not start",
    );
  });
});
