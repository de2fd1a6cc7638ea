/** How the keys CLI (./keys-cli.ts) shows keys: JSON objects, the one-time key text, the list table and one key. */
import { type ApiKeyRecord, type IssuedKey, toKeyId } from '../../lambdas/access/api-key';
import type { KeyUsage } from '../../lambdas/access/usage-reader';

/** A key record with its usage, as `list` and `show` print it. */
export interface KeyWithUsage {
  record: ApiKeyRecord;
  usage: KeyUsage;
}

/** A key record as the CLI's JSON output shows it (never the whole hash). */
export function toRecordJson(record: ApiKeyRecord) {
  return {
    key_id: toKeyId(record.keyHash),
    key_prefix: record.keyPrefix,
    label: record.label ?? null,
    // A short hash is enough to match a key with its usage counters; the full one is a table key.
    key_hash: `${record.keyHash.slice(0, 12)}…`,
    plan: record.plan,
    vertical: record.vertical,
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    ...(record.replacedBy ? { replaced_by: toKeyId(record.replacedBy) } : {}),
  };
}

/** A key record with its usage as JSON. */
export function toUsageJson({ record, usage }: KeyWithUsage) {
  return {
    ...toRecordJson(record),
    last_used_at: usage.lastUsedAt,
    usage: { month: usage.month, used: usage.used },
  };
}

/** A new key and its record as the CLI's JSON output shows them. */
export function toIssuedJson(issued: IssuedKey) {
  return { key: issued.key, ...toRecordJson(issued.record) };
}

/** The text shown for a created or rotated key: the key itself, once, its id, and why to store it now. */
export function describeIssued(verb: string, issued: IssuedKey): string {
  const { record } = issued;
  const scope = record.vertical ? ` bound to ${record.vertical}` : '';
  const label = record.label ? ` (${record.label})` : '';
  return [
    `${verb} ${/^[aeiou]/.test(record.plan) ? 'an' : 'a'} ${record.plan} key${scope}${label}, id ${toKeyId(record.keyHash)}:`,
    '',
    `  ${issued.key}`,
    '',
    'This key is shown only once: store it now. Only its hash is kept, so it cannot be recovered.',
    `Manage it by its id: npm run keys -- show ${toKeyId(record.keyHash)}`,
  ].join('\n');
}

/** The key list as an aligned text table. */
export function formatTable(keys: KeyWithUsage[]): string {
  if (keys.length === 0) return 'No keys yet. Create one: npm run keys -- create --plan free';
  const month = keys[0]?.usage.month ?? '';
  const header = ['ID', 'LABEL', 'PLAN', 'VERTICAL', 'STATUS', 'CREATED', 'LAST USED', `USED ${month}`];
  const rows = keys.map(({ record: r, usage }) => [
    toKeyId(r.keyHash),
    r.label ?? '-',
    r.plan,
    r.vertical ?? '-',
    r.status,
    r.createdAt,
    usage.lastUsedAt ?? '-',
    String(usage.used),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** One key's details and usage, one field a line. */
export function formatKey({ record, usage }: KeyWithUsage): string {
  const fields: [string, string][] = [
    ['id', toKeyId(record.keyHash)],
    ['prefix', `${record.keyPrefix}…`],
    ['label', record.label ?? '-'],
    ['plan', record.plan],
    ['vertical', record.vertical ?? '-'],
    ['status', record.status],
    ['created', record.createdAt],
    ['updated', record.updatedAt],
    ...(record.replacedBy ? [['replaced by', toKeyId(record.replacedBy)] as [string, string]] : []),
    ['last used', usage.lastUsedAt ?? '-'],
    [`used ${usage.month}`, String(usage.used)],
  ];
  const width = Math.max(...fields.map(([name]) => name.length));
  return fields.map(([name, value]) => `${`${name}:`.padEnd(width + 1)}  ${value}`).join('\n');
}
