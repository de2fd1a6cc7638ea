/** The `vertical` step: the feed's providers as vertical records, screened against FDA letters and OIG matches. */
import type { DuckDBConnection } from '@duckdb/node-api';
import { VERTICAL_TABLE } from '../../data-contracts/layout';
import { appendRows, createTable, queryRows } from '../../platform/duckdb/statements';
import { indexLetters } from '../sources/fda';
import { latestObservations } from '../sources/feed-rules';
import { buildVerticalRecord, type OigMatch } from '../sources/vertical-record';
import type { BuildContext } from './context';
import type { SourcesRead } from './read-sources';

/** Builds the `vertical` table from the feeds read by the sources step. */
export async function buildVertical(ctx: BuildContext, read: SourcesRead): Promise<void> {
  const { connection, snapshotTime } = ctx;
  const { feed, letters } = read;
  ctx.progress('vertical');
  const latest = latestObservations(feed.observations);
  const oig = await oigMatchesFor(
    connection,
    feed.providers.flatMap((p) => (p.npi ? [p.npi] : [])),
  );
  const newestLetterDate = letters.reduce<string | null>(
    (m, l) => (m === null || l.letter_date > m ? l.letter_date : m),
    null,
  );
  const screen = { snapshotTime, letters: indexLetters(letters), newestLetterDate, oig };
  const records = feed.providers.map((p) => buildVerticalRecord(p, latest.get(p.entity_id), screen));
  // The `vertical` table, typed per VERTICAL_TABLE, that the parquet step partitions.
  await createTable(connection, 'vertical', VERTICAL_TABLE);
  await appendRows(connection, 'vertical', VERTICAL_TABLE, records);
}

async function oigMatchesFor(connection: DuckDBConnection, npis: readonly string[]): Promise<Map<string, OigMatch>> {
  const out = new Map<string, OigMatch>();
  if (npis.length === 0) return out;
  await createTable(connection, 'feed_npis', { npi: 'VARCHAR' });
  await appendRows(
    connection,
    'feed_npis',
    { npi: 'VARCHAR' },
    [...new Set(npis)].map((npi) => ({ npi })),
  );
  const rows = await queryRows(connection, 'SELECT o.* FROM oig_match o JOIN feed_npis f USING (npi)');
  for (const r of rows) {
    out.set(String(r.npi), {
      oig_type: r.oig_type === null ? null : String(r.oig_type),
      oig_date: r.oig_date === null ? null : String(r.oig_date),
      oig_checked_at: r.oig_checked_at === null ? null : String(r.oig_checked_at),
    });
  }
  return out;
}
