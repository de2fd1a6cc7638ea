/**
 * The one error type of the API: a stable contract `code`, its HTTP status from the code table
 * (`ERROR_STATUS`), a human message, and the optional `hint`, `upgrade`, `plan`, `usage` of the error body.
 * Anything thrown that is not an ApiError becomes `500 internal_error` with a fixed message (http layer).
 */
import { ERROR_STATUS, type ErrorCode, type Plan } from '../../data-contracts/constants';
import type { ErrorBody, Usage } from '../../data-contracts/types';
import type { RateLimitState } from './ports';

/** Optional parts of an error. */
export interface ApiErrorDetails {
  hint?: string;
  upgrade?: string;
  plan?: Plan;
  usage?: Usage;
  /** For 429: the counter state behind the `X-RateLimit-*` and `Retry-After` headers (not part of the body). */
  rateLimit?: RateLimitState;
  /** For 503: the `Retry-After` header, in seconds (not part of the body). */
  retryAfterSeconds?: number;
}

/** The fixed message of every 500: no internal detail ever reaches a client. */
export const INTERNAL_ERROR_MESSAGE = 'Internal server error. The failure was logged; please retry later.';

/**
 * @example throw new ApiError('invalid_limit', 'limit must be an integer from 1 to 1000', { hint: 'limit=50' })
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ApiErrorDetails = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  /** The contract's error body: `{ error, code, hint?, upgrade?, plan?, usage? }`. */
  toBody(): ErrorBody {
    const { hint, upgrade, plan, usage } = this.details;
    return {
      error: this.message,
      code: this.code,
      ...(hint !== undefined ? { hint } : {}),
      ...(upgrade !== undefined ? { upgrade } : {}),
      ...(plan !== undefined ? { plan } : {}),
      ...(usage !== undefined ? { usage } : {}),
    };
  }
}

/** The 500 every unexpected failure becomes. */
export function internalError(): ApiError {
  return new ApiError('internal_error', INTERNAL_ERROR_MESSAGE);
}
