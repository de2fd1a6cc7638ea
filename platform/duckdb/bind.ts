/**
 * The one way a value becomes a DuckDB parameter, for the API (./pool.ts) and the ETL (./statements.ts) alike: every
 * value of a query is bound to a `?` or `$n` placeholder, never spliced into its SQL.
 */
import { BIGINT, DuckDBListValue, type DuckDBPreparedStatement, LIST, VARCHAR } from '@duckdb/node-api';

/**
 * A value that may be bound to a placeholder: text as VARCHAR, a whole number as BIGINT, another number as DOUBLE,
 * a boolean as BOOLEAN, null as NULL, an array of whole numbers as a `LIST(BIGINT)` and an array of strings as a
 * `LIST(VARCHAR)`.
 */
export type SqlValue = string | number | boolean | null | readonly number[] | readonly string[];

/**
 * Binds `params` to the statement's placeholders in order (`params[0]` to `?`/`$1`), after checking that there are
 * exactly as many values as placeholders.
 * @example
 * const statement = await connection.prepare('SELECT * FROM t WHERE state = $1 AND src = $2');
 * try { bindParams(statement, ['TX', 3]); await statement.run(); } finally { statement.destroySync(); }
 */
export function bindParams(statement: DuckDBPreparedStatement, params: readonly SqlValue[]): void {
  if (statement.parameterCount !== params.length) {
    throw new Error(`statement has ${statement.parameterCount} parameters, ${params.length} given`);
  }
  params.forEach((value, i) => {
    const index = i + 1;
    if (value === null) statement.bindNull(index);
    else if (typeof value === 'object') {
      if (value.length > 0 && value.every((v) => typeof v === 'string')) {
        statement.bindValue(index, new DuckDBListValue([...value]), LIST(VARCHAR));
      } else statement.bindValue(index, new DuckDBListValue(value.map((v) => BigInt(v))), LIST(BIGINT));
    } else if (typeof value === 'string') statement.bindVarchar(index, value);
    else if (typeof value === 'boolean') statement.bindBoolean(index, value);
    else if (Number.isInteger(value)) statement.bindBigInt(index, BigInt(value));
    else statement.bindDouble(index, value);
  });
}
