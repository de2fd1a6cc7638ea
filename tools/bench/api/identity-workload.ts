/**
 * The identity queries of `bench:api`, drawn from the snapshot's own rows, and their expected answers computed
 * with DuckDB straight over the identity Parquet (never through the API's code).
 *
 * Rows are drawn uniformly at random over every identity partition (DuckDB's reservoir sample over all of them),
 * so a taxonomy code, a state or a city comes up as often as it occurs in the data. From each drawn row:
 * - a: its taxonomy_code and state, limit 50;
 * - b: its taxonomy_code, state and city, limit 50 (rows without a state or city are skipped for a and b);
 * - d: its taxonomy_code alone, limit 1000.
 * And c: the largest taxonomy alone, limit 50, at random offsets of 100,000 or more (multiples of 50, every page
 * full): the classification name of the largest partition (its class_rep rows) or the single code with the most
 * rows, whichever has more results, when that is more than 100,050. A smaller snapshot has no such taxonomy: c then
 * takes the largest one at offsets in the upper half of its results, and says so.
 *
 * Every request value gets a random letter case (`tx`, `Tx`; `houston`, `HOUSTON`; `163w00000x`), as clients
 * send them. Each list is shuffled, so it is traversed in random order.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlStringLiteral } from '../../../platform/sql';
import type { Random } from '../../demo/random';

export const DEEP_OFFSET = 100_000;
const API = '/api/v1/providers';

export type IdentityScenarioId = 'a' | 'b' | 'c' | 'd';

/** What an identity query asks, in the terms of the data (for the expected answer). */
export interface IdentityQuery {
  scenario: IdentityScenarioId;
  path: string;
  /** A code query (rows with that taxonomy_code) or a classification-name query (class_rep rows of it). */
  taxonomy: { kind: 'code'; code: string } | { kind: 'classification'; key: string; name: string };
  /** The request values as sent (any case). */
  state: string | null;
  city: string | null;
  limit: number;
  offset: number;
}

/** The taxonomy of scenario c. */
export interface DeepTaxonomy {
  kind: 'classification' | 'code';
  /** The classification name or the code. */
  label: string;
  /** The classification key (a classification) or the code's classification key. */
  classificationKey: string;
  /** Results of a query by that taxonomy alone. */
  total: number;
  /** Offsets start at {@link DEEP_OFFSET}; false when the snapshot is too small and c uses the upper half. */
  full: boolean;
  firstOffset: number;
}

export interface IdentityWorkload {
  /** Rows drawn, and how many had a state and a city. */
  drawn: number;
  withState: number;
  withCity: number;
  /** Distinct (code, state) and (code, state, city) combinations among the drawn rows. */
  distinctA: number;
  distinctB: number;
  queries: Record<IdentityScenarioId, IdentityQuery[]>;
  deep: DeepTaxonomy;
  /** Identity rows in all partitions, and partitions. */
  identityRows: number;
  partitions: number;
}

interface DrawOptions {
  /** Absolute paths of every identity partition file. */
  files: string[];
  /** Absolute path of the taxonomy Parquet. */
  taxonomyFile: string;
  draws: number;
  /** Offsets drawn for scenario c. */
  deepQueries: number;
  seed: number;
  rng: Random;
}

/**
 * Creates the view `identity` over every partition file and `taxonomy` over the taxonomy file in `conn`.
 * @example await openIdentityViews(conn, files, taxonomyFile); await drawIdentityWorkload(conn, options);
 */
export async function openIdentityViews(conn: DuckDBConnection, files: string[], taxonomyFile: string): Promise<void> {
  if (files.length === 0) throw new Error('the snapshot has no identity partition');
  await conn.run(`CREATE OR REPLACE VIEW identity AS SELECT * FROM read_parquet([${files.map(sqlStringLiteral)}])`);
  await conn.run(`CREATE OR REPLACE VIEW taxonomy AS SELECT * FROM read_parquet(${sqlStringLiteral(taxonomyFile)})`);
}

/** Draws the a-d query lists (the views of {@link openIdentityViews} must exist). */
export async function drawIdentityWorkload(conn: DuckDBConnection, options: DrawOptions): Promise<IdentityWorkload> {
  const { rng } = options;
  const identityRows = Number((await rows(conn, 'SELECT count(*) AS n FROM identity'))[0]?.n);
  const sample = (
    await rows(
      conn,
      `SELECT taxonomy_code, state, city FROM identity
       USING SAMPLE reservoir(${int(options.draws)} ROWS) REPEATABLE (${int(options.seed)})`,
    )
  ).map((r) => ({ code: String(r.taxonomy_code), state: nullable(r.state), city: nullable(r.city) }));
  // The sample comes back in file order: shuffle it, so every list is traversed in random order.
  const drawn = rng.shuffle(sample);

  const a: IdentityQuery[] = [];
  const b: IdentityQuery[] = [];
  const d: IdentityQuery[] = [];
  for (const row of drawn) {
    d.push(identityQuery('d', { kind: 'code', code: row.code }, null, null, 1000, 0, rng));
    if (row.state === null) continue;
    a.push(identityQuery('a', { kind: 'code', code: row.code }, row.state, null, 50, 0, rng));
    if (row.city === null) continue;
    b.push(identityQuery('b', { kind: 'code', code: row.code }, row.state, row.city, 50, 0, rng));
  }

  const deep = await largestTaxonomy(conn);
  const c: IdentityQuery[] = [];
  const lastOffset = deep.total - 50;
  const pages = Math.floor((lastOffset - deep.firstOffset) / 50) + 1;
  if (pages < 1) throw new Error(`the largest taxonomy ${deep.label} has too few rows (${deep.total}) for scenario c`);
  const taxonomy: IdentityQuery['taxonomy'] =
    deep.kind === 'classification'
      ? { kind: 'classification', key: deep.classificationKey, name: deep.label }
      : { kind: 'code', code: deep.label };
  for (let i = 0; i < options.deepQueries; i++) {
    const offset = deep.firstOffset + 50 * rng.int(0, pages - 1);
    c.push(identityQuery('c', taxonomy, null, null, 50, offset, rng));
  }

  const key = (q: IdentityQuery) => `${q.taxonomy.kind === 'code' ? q.taxonomy.code : ''}|${q.state?.toUpperCase()}`;
  return {
    drawn: drawn.length,
    withState: a.length,
    withCity: b.length,
    distinctA: new Set(a.map(key)).size,
    distinctB: new Set(b.map((q) => `${key(q)}|${q.city?.toLowerCase()}`)).size,
    queries: { a, b, c, d },
    deep,
    identityRows,
    partitions: options.files.length,
  };
}

/** The larger of: the largest classification by class_rep rows (named), the single code with the most rows. */
async function largestTaxonomy(conn: DuckDBConnection): Promise<DeepTaxonomy> {
  // The unmapped partition has no classification name to query it by.
  const [klass] = await rows(
    conn,
    `SELECT i.classification_key AS key, count(*) AS n, min(t.classification) AS name
     FROM identity i JOIN (SELECT DISTINCT classification_key, classification FROM taxonomy) t USING (classification_key)
     WHERE i.class_rep GROUP BY ALL ORDER BY n DESC, key LIMIT 1`,
  );
  const [code] = await rows(
    conn,
    `SELECT taxonomy_code AS code, any_value(classification_key) AS key, count(*) AS n
     FROM identity GROUP BY ALL ORDER BY n DESC, code LIMIT 1`,
  );
  if (!klass || !code) throw new Error('the identity layer is empty');
  const byName = {
    kind: 'classification' as const,
    label: String(klass.name),
    key: String(klass.key),
    n: num(klass.n),
  };
  const byCode = { kind: 'code' as const, label: String(code.code), key: String(code.key), n: num(code.n) };
  const best = byName.n >= byCode.n ? byName : byCode;
  const full = best.n > DEEP_OFFSET + 50;
  // Too small for offset 100,000: offsets in the upper half of the results, still deep pages.
  const firstOffset = full ? DEEP_OFFSET : Math.floor(best.n / 2 / 50) * 50;
  return { kind: best.kind, label: best.label, classificationKey: best.key, total: best.n, full, firstOffset };
}

/** One query with its URL; the values get a random letter case. */
function identityQuery(
  scenario: IdentityScenarioId,
  taxonomy: IdentityQuery['taxonomy'],
  state: string | null,
  city: string | null,
  limit: number,
  offset: number,
  rng: Random,
): IdentityQuery {
  const sentTaxonomy =
    taxonomy.kind === 'code'
      ? rng.chance(0.5)
        ? taxonomy.code.toUpperCase()
        : taxonomy.code.toLowerCase()
      : randomWordCase(taxonomy.name, rng);
  const sentState = state === null ? null : randomLetterCase(state, rng);
  const sentCity = city === null ? null : randomWordCase(city, rng);
  const params = [`taxonomy=${encodeURIComponent(sentTaxonomy)}`];
  if (sentState !== null) params.push(`state=${encodeURIComponent(sentState)}`);
  if (sentCity !== null) params.push(`city=${encodeURIComponent(sentCity)}`);
  params.push(`limit=${limit}`);
  if (offset > 0) params.push(`offset=${offset}`);
  return { scenario, path: `${API}?${params.join('&')}`, taxonomy, state: sentState, city: sentCity, limit, offset };
}

/** `tx`, `Tx`, `tX` or `TX`. */
function randomLetterCase(value: string, rng: Random): string {
  let out = '';
  for (const ch of value) out += rng.chance(0.5) ? ch.toUpperCase() : ch.toLowerCase();
  return out;
}

/** As stored, upper, lower or title case: `HOUSTON`, `houston`, `Houston`. */
function randomWordCase(value: string, rng: Random): string {
  switch (rng.int(0, 3)) {
    case 0:
      return value;
    case 1:
      return value.toUpperCase();
    case 2:
      return value.toLowerCase();
    default:
      return value.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
  }
}

/** The expected answer of a query: the count of its rows and the NPIs of its page, in NPI order. */
export async function expectedAnswer(
  conn: DuckDBConnection,
  q: IdentityQuery,
): Promise<{ total: number; npis: string[] }> {
  const where: string[] = [];
  const params: string[] = [];
  if (q.taxonomy.kind === 'code') {
    params.push(q.taxonomy.code.toUpperCase());
    where.push(`taxonomy_code = $${params.length}`);
  } else {
    params.push(q.taxonomy.key);
    where.push(`class_rep AND classification_key = $${params.length}`);
  }
  if (q.state !== null) {
    params.push(q.state.toUpperCase());
    where.push(`state = $${params.length}`);
  }
  if (q.city !== null) {
    params.push(q.city.trim());
    where.push(`lower(city) = lower($${params.length})`);
  }
  const filter = where.join(' AND ');
  const total = num((await rows(conn, `SELECT count(*) AS n FROM identity WHERE ${filter}`, params))[0]?.n);
  const page = await rows(
    conn,
    `SELECT npi FROM identity WHERE ${filter} ORDER BY npi LIMIT ${int(q.limit)} OFFSET ${int(q.offset)}`,
    params,
  );
  return { total, npis: page.map((r) => String(r.npi)) };
}

async function rows(conn: DuckDBConnection, sql: string, params: string[] = []): Promise<Record<string, unknown>[]> {
  const reader = params.length > 0 ? await conn.runAndReadAll(sql, params) : await conn.runAndReadAll(sql);
  return reader.getRowObjectsJson() as Record<string, unknown>[];
}

function nullable(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function num(value: unknown): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`expected a number from DuckDB, got ${String(value)}`);
  return n;
}

/** A computed integer for a SQL text (LIMIT, OFFSET, sample size): refuses anything else. */
function int(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a non-negative integer: ${n}`);
  return String(n);
}
