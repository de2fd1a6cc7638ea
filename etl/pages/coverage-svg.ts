/**
 * The coverage page's map as inline SVG (state shapes from coverage-map.ts, shaded by verified providers in a few
 * round classes) and its legend.
 */
import type { CoverageSlice, CoverageStats } from '../../data-contracts/types';
import { MAP_FRAME, stateShapes } from './coverage-map';
import { escapeHtml, formatCount } from './html';
import { OFF_MAP_NAMES } from './us-states';

/** Fill of a state without verified providers, and the classes' fills, light to dark (ColorBrewer Blues). */
const NO_DATA_FILL = '#e5e7eb';
const CLASS_FILLS = ['#c6dbef', '#9ecae1', '#6baed6', '#3182bd', '#08519c'] as const;

/** One class of the legend: verified counts from `min` to `max` (inclusive), and its fill. */
export interface LegendClass {
  min: number;
  max: number;
  fill: string;
}

/**
 * The smallest whole 1, 2, 2.5 or 5 times a power of ten that is at least `n`: class widths a reader takes in at a
 * glance.
 */
function niceCeil(n: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(1, n)));
  const steps = [1, 2, 2.5, 5, 10].map((m) => m * power).filter(Number.isInteger);
  return steps.find((step) => step >= n) ?? 10 * power;
}

/**
 * The legend's classes for the largest verified count of a state: up to five of a round equal width over 1..max
 * (a state with none has its own fill); a small maximum gets one class per count.
 * @example legendClasses(3).map((c) => [c.min, c.max]) // [[1, 1], [2, 2], [3, 3]]
 * @example legendClasses(17).map((c) => [c.min, c.max]) // [[1, 5], [6, 10], [11, 15], [16, 17]]
 */
export function legendClasses(maxVerified: number): LegendClass[] {
  if (maxVerified <= 0) return [];
  const width = niceCeil(maxVerified / CLASS_FILLS.length);
  const ranges: { min: number; max: number }[] = [];
  for (let min = 1; min <= maxVerified; min += width) ranges.push({ min, max: Math.min(maxVerified, min + width - 1) });
  // The darkest fills when there are fewer classes than fills, so the largest count is always the darkest.
  const skip = CLASS_FILLS.length - ranges.length;
  return ranges.map((r, i) => ({ ...r, fill: CLASS_FILLS[skip + i] ?? NO_DATA_FILL }));
}

function fillOf(verified: number, classes: readonly LegendClass[]): string {
  return classes.find((c) => verified >= c.min && verified <= c.max)?.fill ?? NO_DATA_FILL;
}

/** A slice's counts by state code. */
export function countsByState(slice: CoverageSlice): Map<string, number> {
  return new Map(slice.by_state.map((s) => [s.state, s.count]));
}

interface MapEntry {
  code: string;
  name: string;
  verified: number;
  tracked: number;
}

/** The state's path and tooltip. */
function statePath(entry: MapEntry, d: string, classes: readonly LegendClass[]): string {
  const tip = `${entry.name} (${entry.code}): ${formatCount(entry.verified)} verified, ${formatCount(entry.tracked)} tracked`;
  return (
    `<path d="${escapeHtml(d)}" fill="${fillOf(entry.verified, classes)}" data-state="${escapeHtml(entry.code)}" ` +
    `data-verified="${entry.verified}" data-tracked="${entry.tracked}"><title>${escapeHtml(tip)}</title></path>`
  );
}

/** The map: every state and DC, then one square per code of coverage.json that has no shape (PR, GU, AE, ...). */
export function renderMap(coverage: CoverageStats, classes: readonly LegendClass[]): string {
  const verified = countsByState(coverage.verified);
  const tracked = countsByState(coverage.tracked);
  const shapes = stateShapes();
  const onMap = new Set(shapes.map((s) => s.code));
  const offMap = [...new Set([...verified.keys(), ...tracked.keys()])].filter((code) => !onMap.has(code)).sort();
  const entry = (code: string, name: string): MapEntry => ({
    code,
    name,
    verified: verified.get(code) ?? 0,
    tracked: tracked.get(code) ?? 0,
  });
  const box = 34;
  const gap = 10;
  const perRow = Math.floor(MAP_FRAME.width / (box + gap));
  const rows = Math.ceil(offMap.length / perRow);
  const height = MAP_FRAME.height + (rows === 0 ? 0 : 24 + rows * (box + gap));
  const squares = offMap.map((code, i) => {
    const x = (i % perRow) * (box + gap);
    const y = MAP_FRAME.height + 24 + Math.floor(i / perRow) * (box + gap);
    const square = statePath(entry(code, OFF_MAP_NAMES[code] ?? code), `M${x},${y}h${box}v${box}h${-box}Z`, classes);
    const label = `<text x="${x + box / 2}" y="${y + box / 2 + 5}" text-anchor="middle">${escapeHtml(code)}</text>`;
    return `<g class="off-map">${square}${label}</g>`;
  });
  const offMapTitle =
    offMap.length === 0
      ? ''
      : `<text class="off-map-title" x="0" y="${MAP_FRAME.height + 14}">Not on the map (territories and military addresses):</text>`;
  const withVerified = [...verified.values()].filter((n) => n > 0).length;
  return [
    `<svg class="map" viewBox="0 0 ${MAP_FRAME.width} ${height}" role="img" aria-labelledby="map-title" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="map-title">Verified providers per state: ${withVerified} states and territories with at least one</title>`,
    '<g class="states">',
    ...shapes.map((s) => statePath(entry(s.code, s.name), s.d, classes)),
    '</g>',
    offMapTitle,
    ...squares,
    '</svg>',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** The legend of the map's fills. */
export function renderLegend(classes: readonly LegendClass[]): string {
  const item = (fill: string, label: string) =>
    `<li><span class="swatch" style="background:${fill}"></span>${escapeHtml(label)}</li>`;
  const items = [
    item(NO_DATA_FILL, 'none verified'),
    ...classes.map((c) =>
      item(c.fill, c.min === c.max ? formatCount(c.min) : `${formatCount(c.min)}–${formatCount(c.max)}`),
    ),
  ];
  return `<ul class="legend" aria-label="Verified providers per state">${items.join('')}</ul>`;
}
