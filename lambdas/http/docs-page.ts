/**
 * The API reference at `/api/v1/docs`: an HTML page that renders the OpenAPI document with Redoc
 * (https://github.com/Redocly/redoc), whose standalone bundle (the npm package `redoc`, `bundles/redoc.standalone.js`)
 * is served by the API itself at `/api/v1/docs/redoc.standalone.js`. The page asks nothing of any other host: no
 * web fonts (Redoc falls back to the browser's own), no CDN, and a Content-Security-Policy that allows only this
 * origin ({@link DOCS_CSP}).
 *
 * The page holds no inline script: Redoc's bundle finds the `<redoc spec-url>` element itself when the document has
 * loaded (its "auto-init"), so `script-src 'self'` needs no hash or nonce.
 *
 * The bundle is read from `node_modules` once per {@link DocsAssets}, at its first request (locally, in tests, and in
 * the Lambda asset, where `infra/bundling.ts` copies the file to the same place beside the bundle), and served as it
 * is but for one string: the sidebar's Redocly logo, which Redoc loads from Redocly's CDN with no option to turn it
 * off, points at a blank `data:` image instead ({@link localBundle}). Both files are
 * public, cacheable for an hour, tagged with a hash of their bytes (`If-None-Match` answers 304), and the script
 * is sent br or gzip when the client asks (compressed once per coding, then kept).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { API_BASE_PATH } from '../../data-contracts/constants';
import { type Coding, chooseCoding, compressBytes, MIN_COMPRESS_BYTES } from './compression';
import { ifNoneMatchHits } from './data-version';
import { responseOf } from './response-parts';
import { DOCUMENT_CACHE } from './responses';

/** The module path of Redoc's standalone bundle (resolved with Node's resolution, as `require` would). */
export const REDOC_BUNDLE_MODULE = 'redoc/bundles/redoc.standalone.js' as const;

/** The one URL of another host that Redoc's bundle loads: the sidebar's logo (component `RedocAttribution`). */
export const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg' as const;
/** What the served bundle loads instead: a blank SVG, inline (`img-src data:`). */
export const BLANK_LOGO = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

/**
 * Redoc's bundle as this origin serves it: the CDN logo replaced by {@link BLANK_LOGO}, nothing else changed.
 * Throws when the bundle does not hold the logo's URL exactly once (a new Redoc: look at what it loads now).
 */
export function localBundle(bundle: Buffer): Buffer {
  const source = bundle.toString('utf8');
  const parts = source.split(REDOC_CDN_LOGO);
  if (parts.length !== 2) {
    throw new Error(`${REDOC_BUNDLE_MODULE} holds ${REDOC_CDN_LOGO} ${parts.length - 1} times, not once`);
  }
  return Buffer.from(parts.join(BLANK_LOGO), 'utf8');
}

/** Where the page and its script are served (the route table's `/docs` and `/docs/redoc.standalone.js`). */
export const DOCS_PATHS = {
  page: `${API_BASE_PATH}/docs`,
  script: `${API_BASE_PATH}/docs/redoc.standalone.js`,
  document: `${API_BASE_PATH}/openapi.json`,
} as const;

/**
 * The page's Content-Security-Policy (https://www.w3.org/TR/CSP3/): nothing from another origin. Redoc needs inline
 * styles (styled-components writes `<style>` elements: `style-src 'unsafe-inline'`), a `blob:` worker (its search
 * index runs in a Web Worker built from a Blob URL) and `data:` images (its inline SVG icons); it fetches the
 * document from this origin (`connect-src 'self'`).
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const HTML_TYPE = 'text/html; charset=utf-8' as const;
export const JAVASCRIPT_TYPE = 'text/javascript; charset=utf-8' as const;

/** The reference page. Redoc reads its options from the element's attributes (kebab-case option names). */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Provider Facts Data API reference</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<noscript>This reference needs JavaScript. The OpenAPI document itself is at <a href="${DOCS_PATHS.document}">${DOCS_PATHS.document}</a>.</noscript>
<redoc spec-url="${DOCS_PATHS.document}" required-props-first="true" sort-required-props-first="true" path-in-middle-panel="true"></redoc>
<script src="${DOCS_PATHS.script}"></script>
</body>
</html>
`;

/** A strong entity tag naming `bytes`. */
function tagOf(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 24)}"`;
}

interface Asset {
  bytes: Buffer;
  etag: string;
  contentType: string;
  /** The asset in each content coding, made at the first request that asks for it. */
  coded: Map<Coding, Promise<Buffer>>;
}

function assetOf(bytes: Buffer, contentType: string): Asset {
  return { bytes, etag: tagOf(bytes), contentType, coded: new Map() };
}

/** What a request for an asset carries that changes the answer. */
export interface AssetRequest {
  ifNoneMatch: string | undefined;
  acceptEncoding: string | undefined;
}

/**
 * The page and the script of one app, each read and tagged once.
 * @example const docs = new DocsAssets(); const res = await docs.page({ ifNoneMatch: undefined, acceptEncoding: 'br' });
 */
export class DocsAssets {
  readonly #readScript: () => Buffer;
  #page: Asset | undefined;
  #script: Asset | undefined;

  /** `readScript` returns the script's bytes; the default reads Redoc's standalone bundle ({@link localBundle}). */
  constructor(readScript: () => Buffer = () => localBundle(readFileSync(require.resolve(REDOC_BUNDLE_MODULE)))) {
    this.#readScript = readScript;
  }

  /** The reference page, with its Content-Security-Policy. */
  page(request: AssetRequest): Promise<Response> {
    this.#page ??= assetOf(Buffer.from(DOCS_HTML, 'utf8'), HTML_TYPE);
    return answer(this.#page, request, {
      'Content-Security-Policy': DOCS_CSP,
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    });
  }

  /** Redoc's standalone bundle, as {@link localBundle} serves it. */
  script(request: AssetRequest): Promise<Response> {
    this.#script ??= assetOf(this.#readScript(), JAVASCRIPT_TYPE);
    return answer(this.#script, request, {});
  }
}

/** 304 when `If-None-Match` names the asset, else 200 in the coding the client asked for. */
async function answer(asset: Asset, request: AssetRequest, extra: Record<string, string>): Promise<Response> {
  const headers: Record<string, string> = {
    'Cache-Control': DOCUMENT_CACHE,
    ETag: asset.etag,
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  };
  // The app adds `Vary: Accept-Encoding` to every 304 (compression.ts).
  if (ifNoneMatchHits(request.ifNoneMatch, asset.etag)) return responseOf({ status: 304, body: null, headers });
  headers.Vary = 'Accept-Encoding';
  const coding = asset.bytes.byteLength < MIN_COMPRESS_BYTES ? null : chooseCoding(request.acceptEncoding);
  if (coding === null) {
    return responseOf({
      status: 200,
      body: asset.bytes,
      headers: { ...headers, 'Content-Type': asset.contentType, 'Content-Length': String(asset.bytes.byteLength) },
    });
  }
  let coded = asset.coded.get(coding);
  if (coded === undefined) {
    coded = compressBytes(asset.bytes, coding);
    asset.coded.set(coding, coded);
    // A failed compression is not kept: the next request tries again.
    coded.catch(() => asset.coded.delete(coding));
  }
  const body = await coded;
  return responseOf({
    status: 200,
    body,
    headers: {
      ...headers,
      'Content-Type': asset.contentType,
      'Content-Encoding': coding,
      'Content-Length': String(body.byteLength),
    },
  });
}
