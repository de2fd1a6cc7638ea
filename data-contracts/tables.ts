/**
 * DynamoDB tables: key schema and attribute names, shared by `lambdas/access` and `infra/`.
 *
 * Keys table: one item per API key, addressed by the SHA-256 hex digest of the key (the key itself is never
 * stored). Usage table: one counter item per key per UTC month, expiring by TTL after its month has passed.
 */
export const KEYS_TABLE = {
  partitionKey: 'key_hash',
  attributes: {
    keyHash: 'key_hash',
    keyPrefix: 'key_prefix',
    plan: 'plan',
    vertical: 'vertical',
    status: 'status',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
    replacedBy: 'replaced_by',
    label: 'label',
  },
} as const;

export const USAGE_TABLE = {
  partitionKey: 'key_hash',
  sortKey: 'month',
  ttlAttribute: 'expires_at',
  // last_used_at: ISO 8601 time of the month's latest metered call (items written before it existed lack it).
  attributes: {
    keyHash: 'key_hash',
    month: 'month',
    used: 'used',
    expiresAt: 'expires_at',
    lastUsedAt: 'last_used_at',
  },
} as const;

/** Readable prefix of every API key; the rest is 32 random bytes, base64url. */
export const API_KEY_PREFIX = 'pf_' as const;
