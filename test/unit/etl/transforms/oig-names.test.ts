/**
 * The OIG normaliser's macros, run through DuckDB (there is no TypeScript twin): examples of each rule, and the
 * property that case, punctuation and accents never change a key.
 */
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { createOigNameMacros } from '../../../../etl/transforms/oig-names';
import { queryRows } from '../../../../platform/duckdb/statements';
import { nameVariant, upperName } from './oig-name-arbitraries';

let instance: DuckDBInstance;
let connection: DuckDBConnection;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  connection = await instance.connect();
  await createOigNameMacros(connection);
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

/** One macro over several inputs, in order. */
async function apply(macro: string, inputs: readonly (string | null)[]): Promise<unknown[]> {
  await connection.run('CREATE OR REPLACE TABLE inputs (i INTEGER, v VARCHAR)');
  const appender = await connection.createAppender('inputs');
  inputs.forEach((v, i) => {
    appender.appendInteger(i);
    if (v === null) appender.appendNull();
    else appender.appendVarchar(v);
    appender.endRow();
  });
  appender.closeSync();
  const rows = await queryRows(connection, `SELECT ${macro}(v)::VARCHAR AS r FROM inputs ORDER BY i`);
  return rows.map((r) => r.r);
}

describe('oig_norm', () => {
  it.each([
    ["O'Brien", 'OBRIEN'],
    ['O’Brien', 'OBRIEN'],
    ['L.L.C.', 'LLC'],
    ['Smith & Jones', 'SMITH AND JONES'],
    ['  José   Núñez-García ', 'JOSE NUNEZ GARCIA'],
    ['ST. LOUIS', 'ST LOUIS'],
    ['A/B, C;D', 'A B C D'],
    ['', ''],
  ])('normalises %j to %j', async (input, expected) => {
    expect(await apply('oig_norm', [input])).toEqual([expected]);
  });
});

describe('person and organisation keys', () => {
  it.each([
    ['SMITH JR.', 'SMITH'],
    ['SMITH, III', 'SMITH'],
    ['SMITH MD', 'SMITH'],
    ['DE LA CRUZ', 'DELACRUZ'],
    ['Garcia-Lopez', 'GARCIALOPEZ'],
    ['DO', 'DO'],
    ['V', 'V'],
    ['', null],
    [null, null],
  ])('oig_last_key(%j) = %j', async (input, expected) => {
    expect(await apply('oig_last_key', [input])).toEqual([expected]);
  });

  it('takes the first token of a first name', async () => {
    expect(await apply('oig_first_token', ['MARY-ANN', 'j.', 'Élodie Marie', '', null])).toEqual([
      'MARY',
      'J',
      'ELODIE',
      null,
      null,
    ]);
  });

  it.each([
    ['Sunshine Health, Inc.', 'SUNSHINE HEALTH'],
    ['THE SUNSHINE HEALTH L.L.C.', 'SUNSHINE HEALTH'],
    ['Sunshine Health P.C.', 'SUNSHINE HEALTH'],
    ['SMITH & JONES PHARMACY CORP', 'SMITH AND JONES PHARMACY'],
    ['SMITH AND JONES PHARMACY COMPANY', 'SMITH AND JONES PHARMACY'],
    ['THE', 'THE'],
    ['INC', 'INC'],
    [null, null],
  ])('oig_org_key(%j) = %j', async (input, expected) => {
    expect(await apply('oig_org_key', [input])).toEqual([expected]);
  });
});

describe('evidence macros', () => {
  it.each([
    ['JOHN', 'JOHN', 'exact'],
    ['J', 'JOHN', 'initial'],
    ['JOHN', 'J', 'initial'],
    ['JOHN', 'JAMES', null],
    ['K', 'JOHN', null],
    [null, 'JOHN', null],
  ])('oig_name_agreement(%j, %j) = %j', async (a, b, expected) => {
    const [row] = await queryRows(connection, 'SELECT oig_name_agreement($1, $2) AS r', [a, b]);
    expect(row?.r).toBe(expected);
  });

  it.each([
    ['TX', 'TX', 'TX', 'both'],
    ['TX', 'TX', 'CA', 'practice'],
    ['TX', 'CA', 'TX', 'mailing'],
    ['TX', 'CA', null, null],
    [null, null, null, null],
  ])('oig_place_agreement(%j, %j, %j) = %j', async (v, practice, mailing, expected) => {
    const [row] = await queryRows(connection, 'SELECT oig_place_agreement($1, $2, $3) AS r', [v, practice, mailing]);
    expect(row?.r).toBe(expected);
  });
});

describe('keys (property)', () => {
  it('never change with case, punctuation or accents', async () => {
    await fc.assert(
      fc.asyncProperty(
        upperName.chain((name) =>
          fc.tuple(fc.constant(name), fc.array(nameVariant(name), { minLength: 1, maxLength: 4 })),
        ),
        async ([name, variants]) => {
          for (const macro of ['oig_last_key', 'oig_first_token', 'oig_org_key', 'oig_norm']) {
            const [base, ...others] = await apply(macro, [name, ...variants]);
            for (const other of others) expect(other).toBe(base);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
