import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { bindParams, type SqlValue } from '../../../platform/duckdb/bind';

describe('bindParams', () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
  });

  afterAll(() => {
    connection.closeSync();
    instance.closeSync();
  });

  async function select(sql: string, params: readonly SqlValue[]): Promise<Record<string, unknown>> {
    const statement = await connection.prepare(sql);
    try {
      bindParams(statement, params);
      return (await statement.runAndReadAll()).getRowObjectsJson()[0] ?? {};
    } finally {
      statement.destroySync();
    }
  }

  it('binds each kind of value with its DuckDB type', async () => {
    const row = await select(
      'SELECT $1 AS s, typeof($2) AS i, typeof($3) AS d, $4 AS b, $5 IS NULL AS n, $6 AS l, typeof($6) AS lt',
      ["O'Hare; DROP TABLE t", 42, 0.5, true, null, [1, 2, 3]],
    );
    expect(row).toEqual({
      s: "O'Hare; DROP TABLE t",
      i: 'BIGINT',
      d: 'DOUBLE',
      b: true,
      n: true,
      l: ['1', '2', '3'],
      lt: 'BIGINT[]',
    });
  });

  it('refuses a number of values that differs from the placeholders', async () => {
    await expect(select('SELECT $1 AS a, $2 AS b', ['x'])).rejects.toThrow('statement has 2 parameters, 1 given');
    await expect(select('SELECT 1 AS a', ['x'])).rejects.toThrow('statement has 0 parameters, 1 given');
  });
});
