/**
 * Authentication (the OpenAPI document's security schemes): which of the three forms carries the key, and whether the key is active.
 * Precedence: `Authorization: Bearer` wins, then `x-api-key`, then the `key` query parameter. A form that
 * wins is used even when its key is bad (no silent fallback to another form).
 */
import { PLAN_RULES, type Plan, PRICING_URL, type Vertical } from '../../data-contracts/constants';
import { ApiError } from './api-error';
import { refuseIfExhausted } from './charge-call';
import type { CoreDeps, Principal } from './ports';

/** The raw places a key may come from, as the transport found them. */
export interface Credentials {
  /** The `Authorization` header, whole. */
  authorization?: string | null;
  /** The `x-api-key` header. */
  apiKeyHeader?: string | null;
  /** The `key` query parameter. */
  keyParam?: string | null;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The key to use, by precedence, or null when none is given. An `Authorization` header with another scheme
 * (Basic, …) is not a key and is ignored.
 * @example pickKey({ authorization: 'Bearer a', apiKeyHeader: 'b', keyParam: 'c' }) === 'a'
 */
export function pickKey(credentials: Credentials): string | null {
  const bearer = credentials.authorization?.trim().match(BEARER)?.[1];
  if (bearer) return bearer;
  const header = credentials.apiKeyHeader?.trim();
  if (header) return header;
  const param = credentials.keyParam?.trim();
  if (param) return param;
  return null;
}

/**
 * The caller behind the credentials: 401 `key_required` without a key, 401 `invalid_key` for an unknown,
 * revoked or rotated key.
 */
export async function authenticate(credentials: Credentials, deps: Pick<CoreDeps, 'keys'>): Promise<Principal> {
  const key = pickKey(credentials);
  if (key === null) {
    throw new ApiError('key_required', 'An API key is required.', {
      hint: 'Send it as "Authorization: Bearer <API_KEY>" (preferred), as the x-api-key header, or as key=<API_KEY>.',
    });
  }
  const record = await deps.keys.findByKey(key);
  if (record === null || record.status !== 'active') {
    throw new ApiError('invalid_key', 'The API key is not recognised, or it was rotated or revoked.', {
      hint: 'Check the key, or use the key that replaced it.',
    });
  }
  return {
    keyHash: record.keyHash,
    plan: record.plan,
    tier: PLAN_RULES[record.plan].tier,
    vertical: record.vertical,
  };
}

/**
 * The first two checks of every keyed call: the key ({@link authenticate}: 401), then the quota this process already
 * knows to be used up (429 `quota_exceeded`, before any parameter is read or any data touched).
 */
export async function admit(
  credentials: Credentials,
  deps: Pick<CoreDeps, 'keys' | 'meter' | 'clock'>,
): Promise<Principal> {
  const principal = await authenticate(credentials, deps);
  refuseIfExhausted(principal, deps);
  return principal;
}

/** 403 `vertical_not_permitted` when a vertical-bound key (builder) asks for another vertical. */
export function authoriseVertical(principal: Principal, vertical: Vertical): void {
  if (!PLAN_RULES[principal.plan].verticalBound || principal.vertical === vertical) return;
  throw new ApiError(
    'vertical_not_permitted',
    `This ${planName(principal.plan)} key is bound to the ${principal.vertical ?? 'none'} vertical and cannot query ${vertical}.`,
    {
      plan: principal.plan,
      upgrade: `The Developer plan covers every vertical: upgrade at ${PRICING_URL}`,
    },
  );
}

function planName(plan: Plan): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}
