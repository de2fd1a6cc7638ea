/**
 * The shapes of the coverage map: the 50 states and DC from `us-atlas/states-albers-10m.json` (Census boundaries,
 * already projected with d3's Albers USA into a 975 x 610 frame, Alaska and Hawaii inset), turned into SVG path
 * data at build time with `d3-geo`'s `geoPath(null)` (no projection: the coordinates are already planar).
 * Reference: https://github.com/topojson/us-atlas#states-albers-10m.json
 */
import { geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import atlas from 'us-atlas/states-albers-10m.json';
import { USPS_BY_FIPS } from './us-states';

/** The frame of the pre-projected atlas. */
export const MAP_FRAME = { width: 975, height: 610 } as const;

/** One state's shape: USPS code, the atlas's name, and SVG path data in {@link MAP_FRAME} coordinates. */
export interface StateShape {
  code: string;
  name: string;
  d: string;
}

type AtlasTopology = Parameters<typeof feature>[0];
/** The states object as a feature collection (topojson-client's overloads cannot type a named object). */
interface StateFeatures {
  features: (Parameters<ReturnType<typeof geoPath>>[0] & { id?: string | number; properties: { name: string } })[];
}

/** Decimal digits of the path coordinates: 0.1 px of the 975 px frame, finer than any screen shows it. */
const PATH_DIGITS = 1;

/**
 * The state shapes, sorted by USPS code. Pure: the same atlas gives the same strings.
 * @example stateShapes().find((s) => s.code === 'TX')?.d.startsWith('M')
 */
export function stateShapes(): StateShape[] {
  // The JSON import's inferred type is not topojson-client's Topology type; the file is a TopoJSON topology.
  const topology = atlas as unknown as AtlasTopology;
  const states = feature(topology, 'states') as unknown as StateFeatures;
  const path = geoPath(null).digits(PATH_DIGITS);
  const shapes: StateShape[] = [];
  for (const state of states.features) {
    const fips = String(state.id);
    const code = (USPS_BY_FIPS as Record<string, string>)[fips];
    if (code === undefined) throw new Error(`us-atlas state ${fips} has no USPS code in us-states.ts`);
    shapes.push({ code, name: state.properties.name, d: path(state) ?? '' });
  }
  return shapes.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}
