/**
 * The PostgreSQL peer's table: the identity layer's rows as the snapshot holds them (data-contracts/layout.ts
 * IDENTITY_TABLE), plus `city_key` (the city, trimmed and lower-cased, as the API matches it), under btree indexes
 * that serve each query shape with an ordered index scan: (code, state, city, npi) for b, (code, state, npi) for a,
 * (code, npi) for c and d by code, and (classification, npi) over the class_rep rows for a query by a
 * classification name. The database's collation is C, so text order is byte order (the API's NPI order).
 */
import { IDENTITY_TABLE } from '../../../data-contracts/layout';

export const PEER_TABLE = 'identity_rows';

/** The columns a page selects: the identity row's, in the contract's order. */
export const PEER_COLUMNS = Object.keys(IDENTITY_TABLE);

const PG_TYPES: Record<string, string> = { VARCHAR: 'text', BOOLEAN: 'boolean' };

/** The table, created empty (the loader drops it first). */
export function createTableSql(): string {
  const columns = Object.entries(IDENTITY_TABLE).map(([name, type]) => `${name} ${PG_TYPES[type] ?? 'text'}`);
  return `CREATE TABLE ${PEER_TABLE} (${[...columns, 'city_key text'].join(', ')})`;
}

/** The indexes, built after the load. */
export const INDEX_SQL = [
  `CREATE INDEX rows_code_state_city_npi ON ${PEER_TABLE} (taxonomy_code, state, city_key, npi)`,
  `CREATE INDEX rows_code_state_npi ON ${PEER_TABLE} (taxonomy_code, state, npi)`,
  `CREATE INDEX rows_code_npi ON ${PEER_TABLE} (taxonomy_code, npi)`,
  `CREATE INDEX rows_class_npi ON ${PEER_TABLE} (classification_key, npi) WHERE class_rep`,
];
