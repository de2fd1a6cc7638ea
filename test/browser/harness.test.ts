import { launchBrowser } from './harness';

describe('the browser harness', () => {
  const saved = process.env.PF_CHROMIUM_PATH;
  afterEach(() => {
    if (saved === undefined) delete process.env.PF_CHROMIUM_PATH;
    else process.env.PF_CHROMIUM_PATH = saved;
  });

  it('fails, naming the browser and why, when the one named by PF_CHROMIUM_PATH cannot start (never a skip)', async () => {
    process.env.PF_CHROMIUM_PATH = '/nonexistent/chromium';
    const failure = launchBrowser();
    await expect(failure).rejects.toThrow('No headless browser could be started for the browser tests.');
    await expect(failure).rejects.toThrow('PF_CHROMIUM_PATH (/nonexistent/chromium)');
  });
});
