/** HTML text helpers of the generated pages. */

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes a value for HTML text and for a double- or single-quoted attribute value.
 * @example escapeHtml('<b title="x">') === '&lt;b title=&quot;x&quot;&gt;'
 */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * An integer with thousands separators, the same on every machine (no locale data involved).
 * @example formatCount(1234567) === '1,234,567'
 */
export function formatCount(n: number): string {
  const sign = n < 0 ? '-' : '';
  return sign + String(Math.abs(Math.trunc(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * `part` as a percentage of `whole`, one decimal (`–` when `whole` is 0).
 * @example formatShare(1, 3) === '33.3%'
 */
export function formatShare(part: number, whole: number): string {
  return whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`;
}
