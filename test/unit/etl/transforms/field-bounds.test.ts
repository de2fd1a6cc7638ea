/**
 * The one length check (etl/transforms/field-bounds.ts): the TypeScript check of the small files and its SQL twin of
 * the DuckDB scans give the same reason for every record, counting Unicode code points.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { reasonKind } from '../../../../etl/steps/check-rejects';
import {
  codePoints,
  OVERLONG_FIELD,
  overlongField,
  overlongFieldSql,
  overlongReason,
} from '../../../../etl/transforms/field-bounds';

describe('overlongField', () => {
  const header = ['NPI', 'Provider First Name', 'City'];
  const bounds = { NPI: 10, 'Provider First Name': 35 };

  it('names the first field over its bound, with its length and the bound, never its value', () => {
    expect(overlongField(header, ['1'.repeat(11), 'A'.repeat(36), 'x'], bounds)).toBe(
      'overlong field: NPI has 11 characters, over its bound of 10',
    );
    expect(overlongField(header, ['1234567893', 'A'.repeat(1 << 20), 'x'], bounds)).toBe(
      'overlong field: Provider First Name has 1048576 characters, over its bound of 35',
    );
  });

  it('passes a value at its bound, an unbounded column however long, and a missing field', () => {
    expect(overlongField(header, ['1234567893', 'A'.repeat(35), 'x'.repeat(1 << 16)], bounds)).toBeNull();
    expect(overlongField(header, ['1234567893'], bounds)).toBeNull();
  });

  it('counts code points, not UTF-16 units or bytes', () => {
    const astral = '\u{1D538}'; // two UTF-16 units, four UTF-8 bytes
    expect(codePoints(astral.repeat(35))).toBe(35);
    expect(overlongField(header, ['1234567893', astral.repeat(35), ''], bounds)).toBeNull();
    expect(overlongField(header, ['1234567893', astral.repeat(36), ''], bounds)).toBe(
      overlongReason('Provider First Name', 36, 35),
    );
  });

  it('is counted as one kind of reason in a run summary, whatever the column', () => {
    expect(reasonKind(overlongReason('Provider Last Name (Legal Name)', 99, 35))).toBe(OVERLONG_FIELD);
  });
});

describe('overlongFieldSql (the SQL twin)', () => {
  const columns = ['NPI', 'Provider Last Name (Legal Name)', 'a "quoted" column', 'free'];
  const bounds = { NPI: 10, 'Provider Last Name (Legal Name)': 3, 'a "quoted" column': 2 };
  const value = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 14 }),
    fc.string({ unit: fc.constantFrom('a', 'é', '\u{1D538}', 'İ', "'"), maxLength: 14 }),
  );

  it('gives the TypeScript check’s reason (or none) for every record', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await connection.run(
        `CREATE TABLE t (i INTEGER, ${columns.map((c) => `"${c.replace(/"/g, '""')}" VARCHAR`).join(', ')})`,
      );
      await fc.assert(
        fc.asyncProperty(fc.array(fc.array(value, { minLength: 4, maxLength: 4 }), { maxLength: 20 }), async (rows) => {
          await connection.run('DELETE FROM t');
          const appender = await connection.createAppender('t');
          rows.forEach((fields, i) => {
            appender.appendInteger(i);
            for (const f of fields) appender.appendVarchar(f);
            appender.endRow();
          });
          appender.closeSync();
          const reader = await connection.runAndReadAll(
            `SELECT ${overlongFieldSql(columns, bounds)} AS r FROM t ORDER BY i`,
          );
          const got = reader.getRowObjectsJson().map((r) => r.r);
          expect(got).toEqual(rows.map((fields) => overlongField(columns, fields, bounds)));
        }),
        { numRuns: 60 },
      );
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('is NULL for a table with no bounded column', () => {
    expect(overlongFieldSql(['x'], { NPI: 10 })).toBe('NULL::VARCHAR');
  });
});
