import { BLANK_LOGO, DOCS_HTML, DocsAssets, localBundle, REDOC_CDN_LOGO } from '../../../../lambdas/http/docs-page';

describe('localBundle', () => {
  it('points the one CDN logo of the bundle at the blank inline image, and changes nothing else', () => {
    const bundle = Buffer.from(`a("${REDOC_CDN_LOGO}");b()`, 'utf8');
    expect(localBundle(bundle).toString('utf8')).toBe(`a("${BLANK_LOGO}");b()`);
  });

  it('refuses a bundle without the logo, or with it twice (a new Redoc: look at what it loads)', () => {
    expect(() => localBundle(Buffer.from('a()'))).toThrow(/0 times, not once/);
    expect(() => localBundle(Buffer.from(`${REDOC_CDN_LOGO}${REDOC_CDN_LOGO}`))).toThrow(/2 times, not once/);
  });
});

describe('DocsAssets', () => {
  it('reads the script once, at its first request, and compresses it once per coding', async () => {
    const read = jest.fn(() => Buffer.from('x'.repeat(4096)));
    const docs = new DocsAssets(read);
    expect(read).not.toHaveBeenCalled();
    const first = await docs.script({ ifNoneMatch: undefined, acceptEncoding: 'gzip' });
    const second = await docs.script({ ifNoneMatch: undefined, acceptEncoding: 'gzip' });
    expect(read).toHaveBeenCalledTimes(1);
    expect(first.headers.get('content-encoding')).toBe('gzip');
    expect(Buffer.from(await second.arrayBuffer()).equals(Buffer.from(await first.arrayBuffer()))).toBe(true);
  });

  it('sends the small page as it is, whatever the client accepts', async () => {
    const page = await new DocsAssets(() => Buffer.from('')).page({ ifNoneMatch: undefined, acceptEncoding: 'br' });
    expect(page.headers.get('content-encoding')).toBeNull();
    expect(await page.text()).toBe(DOCS_HTML);
  });
});
