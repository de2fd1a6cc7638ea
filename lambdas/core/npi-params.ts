/**
 * Parsing of the NPI lookups' input: one NPI (path) and the batch's `numbers` list. A malformed single NPI is 400
 * `invalid_npi`; in a batch it is an `invalid` entry, and only the list itself (empty, or over
 * {@link NPI_LIST_MAX}) refuses the call.
 */
import { isValidNpi } from '../../data-contracts/npi-check';
import { NPI_LIST_MAX, NPI_PATTERN } from '../../data-contracts/parameter-rules';
import { ApiError } from './api-error';

const NPI_SHAPE = new RegExp(NPI_PATTERN);

/** Why an NPI is malformed, or null when it is a valid NPI. */
export function npiProblem(npi: string): string | null {
  if (!NPI_SHAPE.test(npi)) return 'An NPI is 10 digits.';
  if (!isValidNpi(npi)) return 'The check digit fails (Luhn over 80840 and the NPI).';
  return null;
}

const NPI_HINT = 'An NPI is 10 digits whose last digit is the Luhn check digit of 80840 and the first nine.';

/** The NPI of the path, or 400 `invalid_npi`. */
export function parseNpi(raw: string): string {
  const problem = npiProblem(raw);
  if (problem !== null) throw new ApiError('invalid_npi', `Not a valid NPI. ${problem}`, { hint: NPI_HINT });
  return raw;
}

/**
 * A roster parameter (`npi` of the identity search and of the change feed): its NPIs in the order given,
 * de-duplicated; 400 `invalid_parameter` over {@link NPI_LIST_MAX}, 400 `invalid_npi` naming the first malformed one.
 * @example parseNpiRoster('1003633876,1114636115,1003633876', 'npi') // ['1003633876', '1114636115']
 */
export function parseNpiRoster(raw: string, parameter: string): string[] {
  const npis = splitNpiList(raw, parameter, 'roster').map((npi) => {
    const problem = npiProblem(npi);
    if (problem === null) return npi;
    throw new ApiError(
      'invalid_npi',
      `Not a valid NPI. ${parameter} lists ${JSON.stringify(npi.slice(0, 20))}: ${problem}`,
      {
        hint: NPI_HINT,
      },
    );
  });
  return [...new Set(npis)];
}

/**
 * The batch's NPIs in the order asked (duplicates kept), each trimmed; 400 `invalid_parameter` when `numbers` is
 * missing, empty, or lists more than {@link NPI_LIST_MAX}.
 * @example parseNpiList('1003633876, 1114636115') // ['1003633876', '1114636115']
 */
export function parseNpiList(numbers: string | undefined): string[] {
  if ((numbers ?? '').trim() === '') {
    throw new ApiError('invalid_parameter', 'numbers is required: comma-separated NPIs.', {
      hint: '/npi?numbers=1003633876,1114636115',
    });
  }
  return splitNpiList(numbers as string, 'numbers', 'list');
}

/**
 * A comma-separated list of NPIs (parameter `parameter`), each trimmed, in the order given; 400
 * `invalid_parameter` when it lists more than {@link NPI_LIST_MAX}. Shared by the batch and the list's roster.
 */
export function splitNpiList(raw: string, parameter: string, what: string): string[] {
  const list = raw.split(',').map((n) => n.trim());
  if (list.length > NPI_LIST_MAX) {
    throw new ApiError(
      'invalid_parameter',
      `${parameter} lists ${list.length} NPIs; at most ${NPI_LIST_MAX} per call.`,
      {
        hint: `Split the ${what} into calls of ${NPI_LIST_MAX}.`,
      },
    );
  }
  return list;
}
