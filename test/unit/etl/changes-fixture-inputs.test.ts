/**
 * The inputs of test/fixtures/changes differ from the committed inputs they are derived from only in the cells its
 * README lists: a regenerated demo feed or a re-copied sample shows up here, not as a puzzling change feed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCsvRows } from '../../../etl/csv/read';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (...parts: string[]) => readFileSync(path.join(ROOT, ...parts), 'utf8');
const SOURCE = ['test', 'fixtures', 'source-data'];
const CHANGES = ['test', 'fixtures', 'changes'];

/** The cells of `changed` that differ from `original`, as `column: old -> new`. */
function cellDiff(header: readonly string[], original: readonly string[], changed: readonly string[]): string[] {
  return header.flatMap((name, i) => (original[i] === changed[i] ? [] : [`${name}: ${original[i]} -> ${changed[i]}`]));
}

describe('the change feed fixture inputs', () => {
  it('change in the NPPES update files only the cells the README lists', () => {
    const [header = [], ...sample] = parseCsvRows(read(...SOURCE, 'nppes_sample.csv'));
    const byNpi = new Map(sample.map((r) => [r[0], r]));
    const diffs = (file: string) =>
      parseCsvRows(read(...CHANGES, file))
        .slice(1)
        .filter((r) => byNpi.has(r[0]))
        .map((r) => [r[0], ...cellDiff(header, byNpi.get(r[0]) ?? [], r)]);
    const update = 'Last Update Date: 6/15/26 -> 11/2/26';
    expect(diffs('b/nppes_update.csv')).toEqual([
      ['1962105056', update, 'NPI Deactivation Date:  -> 11/2/26'],
      ['1023909249', update, 'NPI Deactivation Date:  -> 11/2/26'],
      ['1639924889', update, 'NPI Deactivation Date:  -> 11/2/26'],
      ['1366380503', 'Provider Last Name (Legal Name): CROWLEY -> CROWLEY-BANKS', update],
      ['1578098257', 'Provider Business Practice Location Address State Name: WA -> OR', update],
      [
        '1437957537',
        update,
        'Healthcare Provider Primary Taxonomy Switch_1: Y -> N',
        'Healthcare Provider Primary Taxonomy Switch_2: N -> Y',
      ],
    ]);
    expect(diffs('c/nppes_update.csv')).toEqual([
      [
        '1023909249',
        'Last Update Date: 6/15/26 -> 11/20/26',
        'NPI Deactivation Date:  -> 11/2/26',
        'NPI Reactivation Date:  -> 11/20/26',
      ],
    ]);
    const enumerated = parseCsvRows(read(...CHANGES, 'b/nppes_update.csv'))
      .slice(1)
      .filter((r) => !byNpi.has(r[0]));
    expect(enumerated.map((r) => r[0])).toEqual(['1679576722']);
  });

  it('change in the LEIE lists only three NPI cells and two removed rows', () => {
    const lines = (...p: string[]) => read(...p).split('\n');
    const original = lines(...SOURCE, 'leie_head.csv');
    const b = lines(...CHANGES, 'b', 'leie_head.csv');
    const c = lines(...CHANGES, 'c', 'leie_head.csv');
    const unchanged = (l: string) => l.replace(/"(1750216602|1922933878|1730014689)"/, '"0000000000"');
    expect(b.map(unchanged)).toEqual(original.filter((l) => !l.includes('"1942476080"')));
    expect(b.filter((l) => l !== unchanged(l))).toHaveLength(3);
    expect(c).toEqual(b.filter((l) => !l.includes('"1922933878"')));
  });

  it('change in the feed only two tiers and append two observations', () => {
    const providers = read('tools', 'demo', 'glp1', 'providers.csv').split('\r\n');
    const changed = read(...CHANGES, 'b', 'glp1', 'providers.csv').split('\r\n');
    expect(changed.filter((l, i) => l !== providers[i])).toEqual([
      'glp1-000002,lakeshore-weight-care,glp1,Lakeshore Weight Care,,Lexington,KY,both,38.0378,-84.5094,1623037201,internal_only',
      'glp1-000031,harborview-family-weight-clinic,glp1,Harborview Family Weight Clinic,,Tampa,FL,both,27.9614,-82.4737,1383705401,verified',
    ]);
    const observations = read('tools', 'demo', 'glp1', 'observations.csv');
    const appended = read(...CHANGES, 'b', 'glp1', 'observations.csv');
    expect(appended.startsWith(observations)).toBe(true);
    expect(
      appended
        .slice(observations.length)
        .split('\r\n')
        .filter(Boolean)
        .map((l) => l.split(',').slice(0, 3).join(',')),
    ).toEqual(['glp1-000004,certification,flagged', 'glp1-000004,price,reported']);
  });
});
