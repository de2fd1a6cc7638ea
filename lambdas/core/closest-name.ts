/**
 * "Did you mean" for names and values a request gets wrong: unknown query parameters (lambdas/http), unknown
 * change kinds (changes-params.ts).
 */

/**
 * The optimal-string-alignment distance (Levenshtein plus the transposition of two neighbours), so `limt`,
 * `lmiit` and `offest` are each one edit from the name meant.
 * @example editDistance('limt', 'limit') === 1
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  const at = (i: number, j: number) => d[i * cols + j] as number;
  for (let i = 0; i < rows; i += 1) d[i * cols] = i;
  for (let j = 0; j < cols; j += 1) d[j] = j;
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The allowed name closest to `name`, or null when none is close: compared case-insensitively (so `LIMIT` and
 * `Limit` suggest `limit`), within one edit for names up to five characters and one edit per three characters
 * beyond. Ties go to the name listed first.
 * @example closestParameter('limt', ['vertical', 'limit', 'offset']) === 'limit'
 */
export function closestParameter(name: string, allowed: readonly string[]): string | null {
  const lower = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of allowed) {
    const distance = editDistance(lower, candidate.toLowerCase());
    const within = Math.max(1, Math.floor(candidate.length / 3));
    if (distance <= within && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
