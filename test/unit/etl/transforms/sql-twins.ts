/** Runs SQL expressions over a list of inputs in a throwaway in-memory DuckDB (the SQL twins of the TS parsers). */
import { DuckDBInstance } from '@duckdb/node-api';

export async function evalSqlOver(
  expression: (column: string) => string,
  inputs: readonly (string | null)[],
): Promise<unknown[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run('CREATE TABLE t (i INTEGER, v VARCHAR)');
    const appender = await connection.createAppender('t');
    inputs.forEach((v, i) => {
      appender.appendInteger(i);
      if (v === null) appender.appendNull();
      else appender.appendVarchar(v);
      appender.endRow();
    });
    appender.closeSync();
    const reader = await connection.runAndReadAll(`SELECT (${expression('v')})::VARCHAR AS r FROM t ORDER BY i`);
    return reader.getRowObjectsJson().map((row) => row.r);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
