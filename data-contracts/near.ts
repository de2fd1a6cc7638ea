/**
 * Distances on the wire: every row of a radius answer carries `distance_miles`, its unrounded great-circle distance
 * (platform/geo/distance.ts) rounded to one decimal. Rows are ordered and matched on the unrounded distance; only
 * the shown value is rounded, here, for JSON and CSV alike.
 */

/**
 * @example roundedMiles(2.449) === 2.4; roundedMiles(2.45) === 2.5; roundedMiles(0.04) === 0
 */
export function roundedMiles(miles: number): number {
  return Math.round(miles * 10) / 10;
}
