/**
 * Great-circle distance on a sphere of radius {@link EARTH_RADIUS_MILES} (the haversine formula): the one
 * definition of "within N miles" for the API, the ETL and the brute-force checks (`greatCircleSql` is the same
 * formula in DuckDB SQL, for the checks that compute it over Parquet).
 */

/** The sphere's radius, in statute miles (the mean Earth radius the contract names). */
export const EARTH_RADIUS_MILES = 3958.8;

const RADIANS = Math.PI / 180;

/**
 * Miles between two points given in decimal degrees.
 * @example Math.round(milesBetween(40.75065, -73.997293, 34.052235, -118.243683)) === 2450
 */
export function milesBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RADIANS;
  const dLon = (lon2 - lon1) * RADIANS;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The same formula as {@link milesBetween} in DuckDB SQL, over four numeric SQL expressions (column names or bound
 * parameters: never request values spliced in).
 * @example greatCircleSql('$1', '$2', 'z.lat', 'z.lon')
 */
export function greatCircleSql(lat1: string, lon1: string, lat2: string, lon2: string): string {
  const r = `${RADIANS}`;
  return (
    `2 * ${EARTH_RADIUS_MILES} * asin(least(1, sqrt(` +
    `pow(sin((${lat2} - ${lat1}) * ${r} / 2), 2) + ` +
    `cos(${lat1} * ${r}) * cos(${lat2} * ${r}) * pow(sin((${lon2} - ${lon1}) * ${r} / 2), 2))))`
  );
}

/** A point's unit vector on the sphere: a cheap first test of "within N miles" is a dot product of two of these. */
export function unitVector(latitude: number, longitude: number): [number, number, number] {
  const lat = latitude * RADIANS;
  const lon = longitude * RADIANS;
  return [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
}

/**
 * The least dot product of unit vectors at most `miles` apart, less a margin for rounding: a point whose dot product
 * falls below it is surely farther (the distance itself decides the others).
 */
export function dotProductFloor(miles: number): number {
  return Math.cos(miles / EARTH_RADIUS_MILES) - 1e-9;
}

/** Points as coordinate arrays with their unit vectors, what {@link circleTest} tests. */
export interface CirclePoints {
  latitude: Float64Array;
  longitude: Float64Array;
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
}

/** Unit vectors of points given as coordinate arrays (NaN where a coordinate is NaN: never within any circle). */
export function unitVectors(latitude: Float64Array, longitude: Float64Array): Pick<CirclePoints, 'x' | 'y' | 'z'> {
  const out = {
    x: new Float64Array(latitude.length),
    y: new Float64Array(latitude.length),
    z: new Float64Array(latitude.length),
  };
  for (let i = 0; i < latitude.length; i += 1) {
    [out.x[i], out.y[i], out.z[i]] = unitVector(latitude[i] as number, longitude[i] as number);
  }
  return out;
}

/**
 * The test of "within `miles` of the point" for points held with their unit vectors: the distance of point `i` when
 * it is within (unrounded, at most `miles`), else -1. The dot product of unit vectors leaves out the points far
 * outside at three multiplications each ({@link dotProductFloor}); the distance decides for the rest. A point with
 * NaN coordinates is never within.
 */
export function circleTest(
  latitude: number,
  longitude: number,
  miles: number,
): (points: CirclePoints, i: number) => number {
  const [cx, cy, cz] = unitVector(latitude, longitude);
  const floor = dotProductFloor(miles);
  return (p, i) => {
    if (!(cx * (p.x[i] as number) + cy * (p.y[i] as number) + cz * (p.z[i] as number) >= floor)) return -1;
    const d = milesBetween(latitude, longitude, p.latitude[i] as number, p.longitude[i] as number);
    return d <= miles ? d : -1;
  };
}
