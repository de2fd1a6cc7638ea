/**
 * The one SQL quoting module, used by the ETL and the API alike (after duckdb-node-neo `api/src/sql.ts`).
 * Values from requests or input files are never quoted into SQL: they are bound as parameters. Quoting is only for
 * what binding cannot carry: identifiers (column and table names from our own allow-lists) and the file paths that
 * table functions take (our own paths, or files an operator named).
 */
import path from 'node:path';

function refuseNul(value: string, what: string): void {
  if (value.includes('\0')) throw new Error(`NUL byte in a SQL ${what}`);
}

/**
 * A string as a SQL string literal: single quotes doubled, NUL refused.
 * @example sqlStringLiteral("O'Hare") -> "'O''Hare'"
 */
export function sqlStringLiteral(value: string): string {
  refuseNul(value, 'literal');
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * A name as a quoted SQL identifier: double quotes doubled, empty and NUL refused. Only names from an allow-list
 * (the contract's columns, NPPES's own headers, table names the code generates) reach this.
 * @example sqlIdentifier('Provider Last Name (Legal Name)') -> '"Provider Last Name (Legal Name)"'
 */
export function sqlIdentifier(name: string): string {
  if (name === '') throw new Error('empty SQL identifier');
  refuseNul(name, 'identifier');
  return `"${name.replace(/"/g, '""')}"`;
}

/** A file path, made absolute, as a SQL string literal (table functions take their file argument at bind time). */
export function sqlPath(file: string): string {
  return sqlStringLiteral(path.resolve(file));
}
