/**
 * The keys table's items and the key records they hold, mapped attribute by attribute (data-contracts/tables.ts).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { KEY_STATUSES, type KeyStatus } from '../../data-contracts/constants';
import { KEYS_TABLE } from '../../data-contracts/tables';
import { type ApiKeyRecord, isPlan, isVertical } from './api-key';

const A = KEYS_TABLE.attributes;

/** Maps a record to its DynamoDB item, attribute by attribute. */
export function toKeyItem(record: ApiKeyRecord): Record<string, AttributeValue> {
  const item: Record<string, AttributeValue> = {
    [A.keyHash]: { S: record.keyHash },
    [A.keyPrefix]: { S: record.keyPrefix },
    [A.plan]: { S: record.plan },
    [A.status]: { S: record.status },
    [A.createdAt]: { S: record.createdAt },
    [A.updatedAt]: { S: record.updatedAt },
  };
  if (record.vertical) item[A.vertical] = { S: record.vertical };
  if (record.replacedBy) item[A.replacedBy] = { S: record.replacedBy };
  if (record.label) item[A.label] = { S: record.label };
  return item;
}

/**
 * Maps a DynamoDB item to a record. An item with an unknown plan or status is a data error, not an invalid key:
 * it throws, so the API answers 500 and logs it rather than silently refusing a paying customer.
 */
export function parseKeyItem(item: Record<string, AttributeValue>): ApiKeyRecord {
  const keyHash = item[A.keyHash]?.S;
  const plan = item[A.plan]?.S;
  const status = item[A.status]?.S;
  const vertical = item[A.vertical]?.S ?? null;
  if (!keyHash || !isPlan(plan) || !isKeyStatus(status) || (vertical !== null && !isVertical(vertical))) {
    throw new Error(`malformed key record ${keyHash ? `${keyHash.slice(0, 12)}…` : '(no hash)'}`);
  }
  const record: ApiKeyRecord = {
    keyHash,
    keyPrefix: item[A.keyPrefix]?.S ?? '',
    plan,
    vertical,
    status,
    createdAt: item[A.createdAt]?.S ?? '',
    updatedAt: item[A.updatedAt]?.S ?? item[A.createdAt]?.S ?? '',
  };
  const replacedBy = item[A.replacedBy]?.S;
  const label = item[A.label]?.S;
  if (replacedBy) record.replacedBy = replacedBy;
  if (label) record.label = label;
  return record;
}

function isKeyStatus(value: unknown): value is KeyStatus {
  return typeof value === 'string' && (KEY_STATUSES as readonly string[]).includes(value);
}
