/**
 * Bad input never decides what is published: a row that cannot be read, or a date that is not a date,
 * is set aside in rejects.csv with its file, line, reason and raw text, and the run goes on; a file that is mostly
 * rejects fails the run. Inputs are copies of the committed real samples with one fault each.
 */
import { appendFile, cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildSnapshot } from '../../../etl/build';
import { demoBuildInputs } from '../../../etl/cli/demo-inputs';
import { EtlInputError } from '../../../etl/errors';
import { FolderObjectStore } from '../../../platform/folder-store';
import { checkDb, currentOf, REPO_ROOT, rejectsOf, SOURCE_DATA, tempDir } from './helpers';

const SNAPSHOT_TIME = new Date('2026-11-21T05:38:00Z');
const NPPES_SAMPLE = path.join(SOURCE_DATA, 'nppes_sample.csv');

/** The byte offset just after the `n`-th comma of a line. */
function afterComma(line: Buffer, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) at = line.indexOf(0x2c, at + 1);
  return at + 1;
}

/** The sample's lines (CRLF, no line end after the last), edited by `edit`, written to `file`. */
async function editedNppes(file: string, edit: (lines: Buffer[]) => void): Promise<void> {
  const bytes = await readFile(NPPES_SAMPLE);
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = bytes.indexOf('\r\n', start); nl !== -1; nl = bytes.indexOf('\r\n', start)) {
    lines.push(bytes.subarray(start, nl));
    start = nl + 2;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  edit(lines);
  await writeFile(
    file,
    Buffer.concat(lines.flatMap((l, i) => (i < lines.length - 1 ? [l, Buffer.from('\r\n')] : [l]))),
  );
}

describe('row-level rejects in every source', () => {
  let dir: string;
  let store: FolderObjectStore;

  beforeAll(async () => {
    dir = await tempDir('pf-etl-rows-');
    store = new FolderObjectStore(path.join(dir, 'store'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('sets aside an invalid UTF-8 byte, too many and too few fields, an unquoted comma and a truncated last row of an NPPES file, with their lines, and publishes', async () => {
    const file = path.join(dir, 'nppes-faults.csv');
    let lastLine = 0;
    let original: Buffer[] = [];
    await editedNppes(file, (lines) => {
      original = [...lines];
      const name = (i: number, insert: Buffer) => {
        const l = lines[i] as Buffer;
        const at = afterComma(l, 5); // Provider Last Name (Legal Name)
        lines[i] = Buffer.concat([l.subarray(0, at), insert, l.subarray(at)]);
      };
      name(31, Buffer.from([0xff])); // line 32: one byte that is not UTF-8, inside a name
      lines[39] = Buffer.concat([lines[39] as Buffer, Buffer.from(',EXTRA')]); // line 40: a field too many
      lines[49] = (lines[49] as Buffer).subarray(0, afterComma(lines[49] as Buffer, 100) - 1); // line 50: too few
      name(59, Buffer.from('SMITH, JR')); // line 60: an unquoted comma (a field too many)
      const last = lines.length - 1;
      lines[last] = (lines[last] as Buffer).subarray(0, 200); // the last line, cut short
      lastLine = last + 1;
    });
    const summary = await buildSnapshot({
      store,
      inputs: { ...demoBuildInputs(REPO_ROOT), nppes: [file] },
      snapshotTime: SNAPSHOT_TIME,
    });
    expect((await currentOf(store)).pointer.snapshot_id).toBe(summary.snapshot_id);
    const nppes = summary.sources.find((s) => s.source === 'nppes');
    expect(nppes).toMatchObject({ read: 918, rejected: 5 });
    expect((nppes?.accepted ?? 0) + (nppes?.skipped ?? 0) + (nppes?.rejected ?? 0)).toBe(918);
    expect(nppes?.top_reasons?.[0]).toEqual({ reason: 'expected 330 fields, found 331', rows: 2 });
    const rejects = (await rejectsOf(store, summary.snapshot_id)).filter((r) => r.source === 'nppes');
    expect(rejects.map((r) => [r.line, r.reason])).toEqual([
      [32, expect.stringMatching(/invalid (encoding|unicode)/i)],
      [40, 'expected 330 fields, found 331'],
      [50, 'expected 330 fields, found 100'],
      [60, 'expected 330 fields, found 331'],
      [lastLine, expect.stringMatching(/^expected 330 fields, found \d+$/)],
    ]);
    for (const r of rejects) expect(r.file).toBe('nppes-faults.csv');
    // The raw text is the line itself (DuckDB shows the invalid byte as `?`).
    expect(rejects[1]?.raw).toBe(`${(original[39] as Buffer).toString('utf8')},EXTRA`);
    const line32 = (original[31] as Buffer).toString('utf8');
    const at = afterComma(original[31] as Buffer, 5);
    expect(rejects[0]?.raw).toBe(`${line32.slice(0, at)}?${line32.slice(at)}`);
  });

  it('sets aside a line end or a stray quote inside a field, a NUL byte past the first MB and a line over DuckDB’s 2,000,000 bytes, and publishes', async () => {
    const file = path.join(dir, 'nppes-hostile.csv');
    const NAME = 5; // Provider Last Name (Legal Name)
    const faults = {
      lineEnd: '"SMI\nTH"', // a line end inside a quoted field: two lines, each with an unclosed quote
      doubledQuote: 'O""NEIL', // a doubled quote inside an unquoted field
      loneQuote: '"O"NEIL"', // a lone quote inside a quoted field
      neverClosed: '"OPEN', // a quote never closed
      longLine: 'L'.repeat(2_100_000), // a line over DuckDB's maximum line size
      nul: `SMI${String.fromCharCode(0)}TH`, // a NUL byte, 1.2 MB into the file
    };
    const at = {} as Record<keyof typeof faults, number>;
    await editedNppes(file, (lines) => {
      // Three copies of the rows (2,754 lines, 1.5 MB), so that a fault can lie past the header check's first MB;
      // the faults are in the last copy, so every NPI keeps a readable row.
      const body = lines.slice(1);
      lines.push(...body, ...body);
      const third = 1 + 2 * body.length;
      const offsets = { lineEnd: 10, doubledQuote: 20, loneQuote: 30, neverClosed: 40, longLine: 60, nul: 400 };
      for (const [fault, offset] of Object.entries(offsets) as [keyof typeof faults, number][]) {
        const cells = (lines[third + offset] as Buffer).toString('utf8').split(',');
        cells[NAME] = faults[fault];
        lines[third + offset] = Buffer.from(cells.join(','));
        // Its file line: after the line end inside a field, every line is one further down.
        at[fault] = third + offset + 1 + (fault === 'lineEnd' ? 0 : 1);
      }
    });
    const bytes = await readFile(file);
    expect(bytes.indexOf(0)).toBeGreaterThan(1 << 20);
    const summary = await buildSnapshot({
      store,
      inputs: { ...demoBuildInputs(REPO_ROOT), nppes: [file] },
      snapshotTime: SNAPSHOT_TIME,
      allowShrink: true,
    });
    const nppes = summary.sources.find((s) => s.source === 'nppes');
    expect(nppes).toMatchObject({ read: 3 * 918 + 1, rejected: 7 });
    const rejects = (await rejectsOf(store, summary.snapshot_id)).filter((r) => r.source === 'nppes');
    const unclosed = 'unbalanced quotes: a quoted field is not closed on its line';
    expect(rejects.map((r) => [r.line, r.reason])).toEqual([
      [at.lineEnd, unclosed],
      [at.lineEnd + 1, unclosed],
      [at.doubledQuote, 'quote inside an unquoted field'],
      [at.loneQuote, unclosed],
      [at.neverClosed, unclosed],
      [at.longLine, expect.stringMatching(/^line size over maximum: /)],
      [at.nul, 'a NUL byte inside the line (the mark of a binary file)'],
    ]);
    for (const r of rejects) expect(r.raw.length).toBeLessThanOrEqual(4001);
    expect(summary.counts.identity).toBe(914);
    const db = await checkDb();
    try {
      const root = path.join(dir, 'store', 'snapshots', summary.snapshot_id, 'identity');
      const [bad] = await db.rows(
        `SELECT count(*)::INTEGER AS n FROM read_parquet('${root}/*/data.parquet', hive_partitioning = false)
         WHERE contains(name, '"') OR contains(name, chr(0)) OR length(name) > 120`,
      );
      expect(bad?.n).toBe(0);
    } finally {
      db.close();
    }
  });

  it('reads a three-row NPPES file with one bad row row by row (no sniffing error), and fails it on the reject share', async () => {
    const source = await readFile(path.join(SOURCE_DATA, 'nppes_pristine_excerpt_v2.csv'), 'utf8');
    const lines = source.split('\n');
    lines[2] = `${lines[2]},"EXTRA"`;
    const file = path.join(dir, 'nppes-small.csv');
    await writeFile(file, lines.join('\n'));
    const inputs = { ...demoBuildInputs(REPO_ROOT), nppes: [file] };
    const refused = buildSnapshot({ store, inputs, snapshotTime: SNAPSHOT_TIME, allowShrink: true });
    await expect(refused).rejects.toThrow(EtlInputError);
    await expect(refused).rejects.toThrow(
      /nppes-small\.csv: 1 of 3 rows rejected \(33\.3%\), more than the 1% allowed \(--max-reject-share\).*expected 330 fields, found 331 \(1\)/,
    );
    const summary = await buildSnapshot({
      store,
      inputs,
      snapshotTime: SNAPSHOT_TIME,
      maxRejectShare: 0.5,
      allowShrink: true,
    });
    expect(summary.sources.find((s) => s.source === 'nppes')).toMatchObject({ read: 3, accepted: 2, rejected: 1 });
    expect((await rejectsOf(store, summary.snapshot_id)).filter((r) => r.source === 'nppes')).toEqual([
      expect.objectContaining({ line: 3, reason: 'expected 330 fields, found 331', raw: lines[2] }),
    ]);
  });

  it('fails a file whose rejected share passes the threshold, naming it, and publishes it under a higher one', async () => {
    const file = path.join(dir, 'nppes-2pct.csv');
    await editedNppes(file, (lines) => {
      for (let i = 1; i <= 19; i++) lines[i * 40] = Buffer.concat([lines[i * 40] as Buffer, Buffer.from(',X')]);
    });
    const pointer = (await store.getBytes('current.json'))?.body.toString('utf8');
    const inputs = { ...demoBuildInputs(REPO_ROOT), nppes: [file] };
    await expect(buildSnapshot({ store, inputs, snapshotTime: SNAPSHOT_TIME, allowShrink: true })).rejects.toThrow(
      /nppes-2pct\.csv: 19 of 918 rows rejected \(2\.07%\), more than the 1% allowed/,
    );
    expect((await store.getBytes('current.json'))?.body.toString('utf8')).toBe(pointer);
    const summary = await buildSnapshot({
      store,
      inputs,
      snapshotTime: SNAPSHOT_TIME,
      maxRejectShare: 0.05,
      allowShrink: true,
    });
    expect(summary.sources.find((s) => s.source === 'nppes')).toMatchObject({ read: 918, rejected: 19 });
  });

  it('rejects impossible and future dates in the feed, FDA and LEIE, and never publishes them', async () => {
    const feed = path.join(dir, 'feed');
    await cp(path.join(REPO_ROOT, 'tools', 'demo', 'glp1'), feed, { recursive: true });
    const observations = await readFile(path.join(feed, 'observations.csv'), 'utf8');
    const firstLine = observations.trimEnd().split(/\r?\n/).length + 1;
    const bad = [
      'glp1-000001,certification,verified,IMPOSSIBLE 1,https://x.example/1,,2026-02-30T10:00:00Z,,,,',
      'glp1-000001,certification,verified,IMPOSSIBLE 2,https://x.example/2,,2026-13-01T10:00:00Z,,,,',
      'glp1-000001,certification,verified,IMPOSSIBLE 3,https://x.example/3,,2026-06-15T25:61:00Z,,,,',
      'glp1-000001,certification,verified,IMPOSSIBLE 4,https://x.example/4,2026-02-31T10:00:00Z,2026-03-01T10:00:00Z,,,,',
      'glp1-000001,certification,verified,IMPOSSIBLE 5,https://x.example/5,,2027-01-01T00:00:00Z,,,,',
    ];
    await appendFile(
      path.join(feed, 'observations.csv'),
      `${observations.endsWith('\n') ? '' : '\n'}${bad.join('\n')}\n`,
    );
    const fda = path.join(dir, 'fda.csv');
    await writeFile(
      fda,
      `${await readFile(path.join(SOURCE_DATA, 'fda_warning_letters.csv'), 'utf8')}12/01/2027,12/01/2027,Future Letter Inc.,CDER,Subject,,\n`,
    );
    const leie = path.join(dir, 'leie.csv');
    await writeFile(
      leie,
      `${await readFile(path.join(SOURCE_DATA, 'leie.csv'), 'utf8')}"FUTURE","ONE","","","","","","1255407482","19800101","1 MAIN ST","X","WV","24910","1128a4","20271201","00000000","00000000",""\n`,
    );
    const summary = await buildSnapshot({
      store: new FolderObjectStore(path.join(dir, 'dates-store')),
      inputs: { ...demoBuildInputs(REPO_ROOT), feeds: [feed], fda: [fda], leie: [leie] },
      snapshotTime: SNAPSHOT_TIME,
    });
    const rejects = await rejectsOf(new FolderObjectStore(path.join(dir, 'dates-store')), summary.snapshot_id);
    expect(rejects.filter((r) => r.source === 'feed_observations').map((r) => [r.line, r.reason])).toEqual([
      [firstLine, 'observed_at ("2026-02-30T10:00:00Z"): not a real calendar date and time'],
      [firstLine + 1, 'observed_at ("2026-13-01T10:00:00Z"): not a real calendar date and time'],
      [firstLine + 2, 'observed_at ("2026-06-15T25:61:00Z"): not a real calendar date and time'],
      [firstLine + 3, 'verified_at ("2026-02-31T10:00:00Z"): not a real calendar date and time'],
      [firstLine + 4, 'observed_at ("2027-01-01T00:00:00Z"): after the snapshot time 2026-11-21T05:38:00Z'],
    ]);
    expect(rejects.find((r) => r.source === 'fda')).toMatchObject({
      file: 'fda.csv',
      line: 582,
      reason: 'Letter Issue Date after the snapshot date 2026-11-21: "12/01/2027"',
    });
    expect(rejects.find((r) => r.source === 'leie')).toMatchObject({
      file: 'leie.csv',
      line: 262,
      reason: 'EXCLDATE after the snapshot date: 20271201',
    });
    const db = await checkDb();
    try {
      const root = path.join(dir, 'dates-store', 'snapshots', summary.snapshot_id, 'vertical', 'tracked');
      const published = await db.rows(
        `SELECT certification_source FROM read_parquet('${root}/**/*.parquet') WHERE entity_id = 'glp1-000001'`,
      );
      expect(published).toHaveLength(1);
      expect(String(published[0]?.certification_source)).not.toMatch(/IMPOSSIBLE/);
    } finally {
      db.close();
    }
  });

  it('keeps the raw record of a verified provider rejected for no sourced signal, and of its observations', async () => {
    const feed = path.join(REPO_ROOT, 'test', 'fixtures', 'feed-bad');
    const summary = await buildSnapshot({
      store: new FolderObjectStore(path.join(dir, 'raw-store')),
      inputs: { ...demoBuildInputs(REPO_ROOT), feeds: [feed] },
      snapshotTime: SNAPSHOT_TIME,
      maxRejectShare: 1,
    });
    const rejects = await rejectsOf(new FolderObjectStore(path.join(dir, 'raw-store')), summary.snapshot_id);
    const lineOf = async (name: string, line: number) =>
      (await readFile(path.join(feed, name), 'utf8')).split(/\r?\n/)[line - 1];
    const provider = rejects.find((r) => r.source === 'feed_providers' && r.line === 9);
    expect(provider?.reason).toMatch(/verified without a sourced signal/);
    expect(provider?.raw).toBe(await lineOf('providers.csv', 9));
    for (const line of [7, 8]) {
      const obs = rejects.find((r) => r.source === 'feed_observations' && r.line === line);
      expect(obs?.reason).toMatch(/its provider was rejected/);
      expect(obs?.raw).toBe(await lineOf('observations.csv', line));
    }
  });
});
