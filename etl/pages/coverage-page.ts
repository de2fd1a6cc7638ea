/**
 * The coverage page (`coverage.html`): the figures of one {@link CoverageStats} as a static HTML page, written next
 * to coverage.json from the same object (the build's `static/` objects and the hourly rebuild's `public/` keys).
 *
 * Everything is rendered here, at build time: the map is inline SVG (state shapes from coverage-map.ts, shaded by
 * verified providers), the styles are inline, and the page has no script and loads nothing from anywhere
 * (the icon is an empty `data:` URL so that browsers do not ask for `/favicon.ico`). Its only requests are the
 * links a reader follows, to the API's own public paths.
 *
 * Every figure of coverage.json is on the page once in an element carrying `data-figure="<path>"` (`verified.total`,
 * `tracked.signals.npi_present`, `verified.by_state.TX`, `identity_layer.total`,
 * `identity_layer.placement.zip_table.source`, `generated_at`, ...), and every
 * state shape carries `data-state` and `data-verified`, so tests compare the page with coverage.json mechanically.
 * The output depends on its input alone: the same coverage gives the same bytes.
 */
import { API_BASE_PATH } from '../../data-contracts/constants';
import type { CoverageSlice, CoverageStats } from '../../data-contracts/types';
import { stateShapes } from './coverage-map';
import { countsByState, legendClasses, renderLegend, renderMap } from './coverage-svg';
import { escapeHtml, formatCount, formatShare } from './html';
import { OFF_MAP_NAMES } from './us-states';

/** The public paths the page links to (the API's own, so the page works wherever the API is served). */
export const COVERAGE_PAGE_LINKS = {
  sampleJson: `${API_BASE_PATH}/sample`,
  sampleCsv: `${API_BASE_PATH}/sample?format=csv`,
  coverageJson: `${API_BASE_PATH}/coverage`,
} as const;

const SIGNAL_LABELS = {
  legitscript_verified: 'Certification verified (LegitScript)',
  license_on_file: 'License on file',
  fda_screened: 'Screened against FDA warning letters',
  npi_present: 'NPI present',
  price_published: 'Price published',
} as const satisfies Record<keyof CoverageSlice['signals'], string>;

const MODE_LABELS = {
  online: 'Online only',
  physical: 'Physical location only',
  both: 'Online and physical',
} as const satisfies Record<keyof CoverageSlice['business_mode'], string>;

/** A figure: its formatted value in an element that names its path in coverage.json. */
function figure(path: string, value: number): string {
  return `<span data-figure="${escapeHtml(path)}">${formatCount(value)}</span>`;
}

/** `2026-06-15T05:38:00Z` -> `2026-06-15 05:38:00 UTC` (any other text is shown as it is). */
function readableTime(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?Z$/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

/** A text figure (a source name, a date): escaped, in an element that names its path in coverage.json. */
function textFigure(path: string, value: string): string {
  return `<span data-figure="${escapeHtml(path)}">${escapeHtml(value)}</span>`;
}

const card = (label: string, body: string) =>
  `<div class="card"><div class="label">${escapeHtml(label)}</div>${body}</div>`;
const big = (path: string, value: number) => `<div class="value">${figure(path, value)}</div>`;

/**
 * The identity layer's placement for radius search: placed, not placed and without a postal code, each with its
 * share of the layer's NPIs, and the ZIP table they were placed with.
 */
function renderPlacementCard(identity: NonNullable<CoverageStats['identity_layer']>): string | null {
  const placement = identity.placement;
  if (placement === undefined) return null;
  const at = 'identity_layer.placement';
  const whole = placement.placed + placement.not_placed + placement.no_postal_code;
  const share = (n: number) => escapeHtml(formatShare(n, whole));
  const { zip_table: table } = placement;
  return card(
    'Placed for radius search',
    `${big(`${at}.placed`, placement.placed)}<div class="sub">NPIs (${share(placement.placed)}) at the centroid ` +
      'of their practice ZIP</div>' +
      `<div class="sub">${figure(`${at}.not_placed`, placement.not_placed)} (${share(placement.not_placed)}) ` +
      'not placed: their ZIP has no centroid (PO boxes, single buildings)</div>' +
      `<div class="sub">${figure(`${at}.no_postal_code`, placement.no_postal_code)} ` +
      `(${share(placement.no_postal_code)}) not placed: no postal code</div>` +
      `<div class="sub">ZIP table ${textFigure(`${at}.zip_table.source`, table.source)} as of ` +
      `${textFigure(`${at}.zip_table.as_of`, table.as_of)}, ${figure(`${at}.zip_table.zips`, table.zips)} ZIPs. ` +
      'A ZIP centroid is not an address.</div>',
  );
}

function renderSliceCards(coverage: CoverageStats): string {
  const cards = [
    card('Verified providers', big('verified.total', coverage.verified.total)),
    card(
      'Verified in',
      `<div class="value">${figure('verified.states', coverage.verified.states)} states</div>` +
        `<div class="sub">${figure('verified.cities', coverage.verified.cities)} cities</div>`,
    ),
    card(
      'Tracked providers',
      big('tracked.total', coverage.tracked.total) +
        `<div class="sub">${figure('tracked.states', coverage.tracked.states)} states, ` +
        `${figure('tracked.cities', coverage.tracked.cities)} cities</div>`,
    ),
  ];
  if (coverage.verticals_live !== undefined)
    cards.push(card('Verticals live', big('verticals_live', coverage.verticals_live)));
  const identity = coverage.identity_layer;
  cards.push(
    identity === undefined
      ? card('Identity layer (NPPES)', '<div class="sub">not in this snapshot</div>')
      : card(
          'Identity layer (NPPES)',
          `${big('identity_layer.total', identity.total)}<div class="sub">NPIs in ` +
            `${figure('identity_layer.states', identity.states)} states, ` +
            `${figure('identity_layer.taxonomies', identity.taxonomies)} taxonomy codes</div>`,
        ),
  );
  const placement = identity === undefined ? null : renderPlacementCard(identity);
  if (placement !== null) cards.push(placement);
  return `<div class="cards">${cards.join('\n')}</div>`;
}

/** A share as text and as a bar (a CSS meter: no script, no chart library needed for a bar). */
function shareCell(part: number, whole: number): string {
  const width = whole === 0 ? 0 : Math.round((100 * part) / whole);
  return `<td class="share"><span class="meter"><span style="width:${width}%"></span></span>${formatShare(part, whole)}</td>`;
}

/** A table of one set of figures for both slices, with the verified share of each row's slice. */
function renderSliceTable<K extends string>(
  caption: string,
  labels: Record<K, string>,
  group: 'signals' | 'business_mode',
  coverage: CoverageStats,
): string {
  const rows = (Object.keys(labels) as K[]).map((key) => {
    const v = (coverage.verified[group] as Record<K, number>)[key];
    const t = (coverage.tracked[group] as Record<K, number>)[key];
    return (
      `<tr><th scope="row">${escapeHtml(labels[key])}</th>` +
      `<td>${figure(`verified.${group}.${key}`, v)}</td>${shareCell(v, coverage.verified.total)}` +
      `<td>${figure(`tracked.${group}.${key}`, t)}</td>${shareCell(t, coverage.tracked.total)}</tr>`
    );
  });
  return (
    `<div class="scroll"><table><caption>${escapeHtml(caption)}</caption>` +
    '<thead><tr><th scope="col"></th><th scope="col">Verified</th><th scope="col">share</th>' +
    '<th scope="col">Tracked</th><th scope="col">share</th></tr></thead>' +
    `<tbody>${rows.join('\n')}</tbody></table></div>`
  );
}

function renderStateTable(coverage: CoverageStats): string {
  const verified = countsByState(coverage.verified);
  const tracked = countsByState(coverage.tracked);
  const names = new Map(stateShapes().map((s) => [s.code, s.name]));
  const codes = [...new Set([...verified.keys(), ...tracked.keys()])].sort(
    (a, b) =>
      (verified.get(b) ?? 0) - (verified.get(a) ?? 0) ||
      (tracked.get(b) ?? 0) - (tracked.get(a) ?? 0) ||
      (a < b ? -1 : 1),
  );
  const cell = (slice: 'verified' | 'tracked', counts: Map<string, number>, code: string) => {
    const n = counts.get(code);
    return n === undefined ? '<td>0</td>' : `<td>${figure(`${slice}.by_state.${code}`, n)}</td>`;
  };
  const rows = codes.map(
    (code) =>
      `<tr><th scope="row">${escapeHtml(names.get(code) ?? OFF_MAP_NAMES[code] ?? code)} <span class="code">${escapeHtml(code)}</span></th>` +
      `${cell('verified', verified, code)}${cell('tracked', tracked, code)}</tr>`,
  );
  return (
    '<div class="scroll"><table class="states-table"><caption>Providers per state</caption>' +
    '<thead><tr><th scope="col">State</th><th scope="col">Verified</th><th scope="col">Tracked</th></tr></thead>' +
    `<tbody>${rows.join('\n')}</tbody></table></div>`
  );
}

const STYLES = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#111827;background:#f9fafb}
main{max-width:980px;margin:0 auto;padding:16px}
h1{font-size:1.6rem;line-height:1.2;margin:.25rem 0 .5rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.asof{color:#4b5563;margin:0 0 1rem}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(165px,1fr));gap:12px}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:12px}
.label{font-size:.85rem;color:#4b5563}
.value{font-size:1.5rem;font-weight:600}
.sub{font-size:.85rem;color:#4b5563}
figure{margin:1rem 0;background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:12px}
.map{display:block;width:100%;max-width:720px;height:auto;margin:0 auto}
.map path{stroke:#fff;stroke-width:.75}
.map .off-map path{stroke:#9ca3af}
.map text{font-size:13px;fill:#111827}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;list-style:none;margin:8px 0 0;padding:0;font-size:.85rem}
.swatch{display:inline-block;width:14px;height:14px;border-radius:3px;margin-right:5px;vertical-align:-2px;border:1px solid #d1d5db}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;background:#fff;border:1px solid #e5e7eb;border-radius:8px}
table{border-collapse:collapse;width:100%;font-size:.92rem}
caption{text-align:left;font-weight:600;padding:8px 10px}
th,td{padding:6px 10px;border-top:1px solid #f3f4f6;text-align:right;white-space:nowrap}
th[scope=row],thead th:first-child{text-align:left;font-weight:400;white-space:normal;min-width:8em}
thead th{font-weight:600;color:#374151}
.meter{display:inline-block;width:56px;height:8px;margin-right:8px;vertical-align:middle;background:#e5e7eb;border-radius:4px;overflow:hidden}
.meter>span{display:block;height:100%;background:#3182bd}
.code{color:#6b7280;font-size:.8rem}
.links{padding-left:1.2rem}
@media (max-width:480px){main{padding:12px}th,td{padding:6px}.meter{display:none}table{font-size:.88rem}}
a{color:#1d4ed8}
footer{color:#6b7280;font-size:.85rem;margin:2rem 0 1rem}
code{font-size:.85em}
`.trim();

/**
 * The coverage page of `coverage`, as UTF-8 text.
 * @example const html = renderCoverageHtml(coverage); // same coverage, same bytes
 */
export function renderCoverageHtml(coverage: CoverageStats): string {
  const maxVerified = coverage.verified.by_state.reduce((max, s) => Math.max(max, s.count), 0);
  const classes = legendClasses(maxVerified);
  const asOf = escapeHtml(coverage.generated_at);
  const snapshot =
    coverage.snapshot_id === undefined
      ? ''
      : `, snapshot <code data-figure="snapshot_id">${escapeHtml(coverage.snapshot_id)}</code>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Provider Facts coverage</title>
<meta name="description" content="Verified providers per state, signal counts and the identity layer of the Provider Facts Data API.">
<link rel="icon" href="data:,">
<style>
${STYLES}
</style>
</head>
<body>
<main>
<h1>Provider Facts coverage</h1>
<p class="asof">Data as of <time datetime="${asOf}" data-figure="generated_at">${escapeHtml(readableTime(coverage.generated_at))}</time>${snapshot}.</p>
${renderSliceCards(coverage)}
<h2>Verified providers per state</h2>
<figure>
${renderMap(coverage, classes)}
<figcaption>${renderLegend(classes)}</figcaption>
</figure>
<h2>Signals</h2>
${renderSliceTable('Providers with each signal (share of the slice)', SIGNAL_LABELS, 'signals', coverage)}
<h2>Business mode</h2>
${renderSliceTable('Providers by business mode (share of the slice)', MODE_LABELS, 'business_mode', coverage)}
<h2>States</h2>
${renderStateTable(coverage)}
<h2>Data</h2>
<ul class="links">
<li><a href="${COVERAGE_PAGE_LINKS.sampleJson}">Sample of verified providers (JSON)</a></li>
<li><a href="${COVERAGE_PAGE_LINKS.sampleCsv}">Sample of verified providers (CSV)</a></li>
<li><a href="${COVERAGE_PAGE_LINKS.coverageJson}">These figures as coverage.json</a></li>
</ul>
<footer>Verified: providers inside the publication boundary, served by the API. Tracked: every provider record of the snapshot, verified or not. Rebuilt every hour from the current snapshot.</footer>
</main>
</body>
</html>
`;
}
