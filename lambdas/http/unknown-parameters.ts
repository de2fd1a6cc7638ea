/**
 * Unknown query parameters are refused (400 `invalid_parameter`) instead of being ignored: `limt=5` or `zip=77001`
 * would otherwise answer an unfiltered page and spend quota. The allowed names of each route come from the OpenAPI
 * document (data-contracts/query-parameters.ts); the hint suggests the closest allowed name when one is close.
 */

import { RECEIPT_PARAMETER } from '../../data-contracts/receipts';
import { ApiError } from '../core/api-error';
import { closestParameter } from '../core/closest-name';
import { receiptNotOffered } from '../core/receipt-params';

/**
 * Throws 400 `invalid_parameter` for the first parameter of `names` (in request order) that `allowed` does not
 * list, naming it, with "Did you mean `…`?" when an allowed name is close and the allowed names in any case. A
 * parameter without a name (`?=x`) filters nothing and is let through, as a repeated parameter is (its first
 * value is used).
 */
export function assertKnownParameters(names: Iterable<string>, allowed: readonly string[]): void {
  for (const name of names) {
    if (name === '' || allowed.includes(name)) continue;
    // A receipt asked where there is none: say where receipts are, rather than suggest a close name.
    if (name === RECEIPT_PARAMETER) throw receiptNotOffered();
    const closest = closestParameter(name, allowed);
    const list = `This route takes: ${allowed.join(', ')}.`;
    throw new ApiError('invalid_parameter', `Unknown query parameter \`${printable(name)}\`.`, {
      hint: closest === null ? list : `Did you mean \`${closest}\`? ${list}`,
    });
  }
}

/** The name as the message shows it: at most 40 characters, control characters escaped. */
function printable(name: string): string {
  const short = name.length > 40 ? `${name.slice(0, 40)}…` : name;
  return JSON.stringify(short).slice(1, -1);
}
