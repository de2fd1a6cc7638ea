/** How the keys CLI (./keys-cli.ts) shows keys: JSON objects, the one-time key text and the list table. */
import type { ApiKeyRecord, IssuedKey } from '../../lambdas/access/api-key';

/** A key record as the CLI's JSON output shows it (never the whole hash). */
export function toRecordJson(record: ApiKeyRecord) {
  return {
    key_prefix: record.keyPrefix,
    // A short hash is enough to match a key with its usage counters; the full one is a table key.
    key_hash: `${record.keyHash.slice(0, 12)}…`,
    plan: record.plan,
    vertical: record.vertical,
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

/** A new key and its record as the CLI's JSON output shows them. */
export function toIssuedJson(issued: IssuedKey) {
  return { key: issued.key, ...toRecordJson(issued.record) };
}

/** The text shown for a created or rotated key: the key itself, once, and why to store it now. */
export function describeIssued(verb: string, issued: IssuedKey): string {
  const { record } = issued;
  const scope = record.vertical ? ` bound to ${record.vertical}` : '';
  return [
    `${verb} a ${record.plan} key${scope}:`,
    '',
    `  ${issued.key}`,
    '',
    'This key is shown only once: store it now. Only its hash is kept, so it cannot be recovered.',
  ].join('\n');
}

/** The key list as an aligned text table. */
export function formatTable(records: ApiKeyRecord[]): string {
  if (records.length === 0) return 'No keys yet. Create one: npm run keys -- create --plan free';
  const header = ['PREFIX', 'PLAN', 'VERTICAL', 'STATUS', 'CREATED', 'UPDATED', 'HASH'];
  const rows = records.map((r) => [
    `${r.keyPrefix}…`,
    r.plan,
    r.vertical ?? '-',
    r.status,
    r.createdAt,
    r.updatedAt,
    `${r.keyHash.slice(0, 12)}…`,
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
