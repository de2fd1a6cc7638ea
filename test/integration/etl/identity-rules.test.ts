/**
 * The identity layer's per-code flags on hand-made NPPES records (CMS form): which code is primary, which row
 * represents the NPI in each classification (`class_rep`), how a repeated code, a code unknown to NUCC and a primary
 * switch on an empty slot are handled (docs/data-team.md).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildSnapshot } from '../../../etl/build';
import { demoBuildInputs } from '../../../etl/cli/demo-inputs';
import { parseCsv } from '../../../etl/csv/read';
import { FolderObjectStore } from '../../../platform/folder-store';
import { checkDb, REPO_ROOT, SOURCE_DATA, tempDir } from './helpers';

const NP = '363L00000X'; // Nurse Practitioner
const NP_FAMILY = '363LF0000X'; // Nurse Practitioner, Family
const FAMILY_MEDICINE = '207Q00000X'; // Family Medicine
const UNKNOWN_A = '999900000X';
const UNKNOWN_B = '999910000X';

/** Per record: its slots as [code, primary switch]. */
const RECORDS: readonly (readonly [string, string])[][] = [
  // Primary in slot 2; slot 1 shares its classification, slot 3 is alone in another one.
  [
    [NP_FAMILY, 'N'],
    [NP, 'Y'],
    [FAMILY_MEDICINE, 'N'],
  ],
  // No primary switch: the lowest slot represents the classification.
  [
    [NP, 'N'],
    [NP_FAMILY, ''],
  ],
  // A repeated code is kept once, at its first slot, and is primary when a later slot holding it says Y.
  [
    [NP_FAMILY, 'X'],
    [NP, 'N'],
    [NP_FAMILY, 'Y'],
  ],
  // Codes unknown to NUCC share the unmapped classification.
  [
    [UNKNOWN_A, 'N'],
    [UNKNOWN_B, 'N'],
    [NP, 'Y'],
  ],
  // A primary switch on an empty slot makes no code primary.
  [
    [NP, 'N'],
    ['', 'Y'],
  ],
];

describe('identity flags from NPPES taxonomy slots', () => {
  let dir: string;
  let rows: Record<string, unknown>[];
  let npis: string[];

  beforeAll(async () => {
    dir = await tempDir('pf-etl-identity-');
    const text = await readFile(path.join(SOURCE_DATA, 'nppes_sample.csv'), 'utf8');
    const [header, ...records] = parseCsv(text);
    const names = header?.fields ?? [];
    const col = (name: string) => names.indexOf(name);
    const individuals = records.filter(
      (r) => r.fields[col('Entity Type Code')] === '1' && r.fields[col('NPI Deactivation Date')] === '',
    );
    const made = RECORDS.map((slots, i) => {
      const fields = [...(individuals[i]?.fields ?? [])];
      for (let s = 1; s <= 15; s += 1) {
        const [code, primary] = slots[s - 1] ?? ['', ''];
        fields[col(`Healthcare Provider Taxonomy Code_${s}`)] = code;
        fields[col(`Healthcare Provider Primary Taxonomy Switch_${s}`)] = primary;
      }
      return fields;
    });
    npis = made.map((f) => f[col('NPI')] ?? '');
    const quote = (fields: string[]) => fields.map((f) => `"${f.replace(/"/g, '""')}"`).join(',');
    const file = path.join(dir, 'nppes-slots.csv');
    await writeFile(file, `${[names, ...made].map(quote).join('\n')}\n`);
    const store = new FolderObjectStore(path.join(dir, 'store'));
    const summary = await buildSnapshot({ store, inputs: { ...demoBuildInputs(REPO_ROOT), nppes: [file] } });
    const db = await checkDb();
    try {
      rows = await db.rows(
        `SELECT npi, taxonomy_code, classification_key, is_primary, class_rep
         FROM read_parquet('${dir}/store/snapshots/${summary.snapshot_id}/identity/*/data.parquet')
         ORDER BY npi, taxonomy_code`,
      );
    } finally {
      db.close();
    }
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const flagsOf = (record: number) =>
    Object.fromEntries(
      rows
        .filter((r) => r.npi === npis[record])
        .map((r) => [r.taxonomy_code, [r.classification_key, r.is_primary, r.class_rep]]),
    );

  it('makes the primary code the representative of its classification, else the lowest slot', () => {
    expect(flagsOf(0)).toEqual({
      [NP_FAMILY]: ['nurse-practitioner', false, false],
      [NP]: ['nurse-practitioner', true, true],
      [FAMILY_MEDICINE]: ['family-medicine', false, true],
    });
  });

  it('leaves is_primary empty when no slot is primary, and picks the lowest slot', () => {
    expect(flagsOf(1)).toEqual({
      [NP]: ['nurse-practitioner', null, true],
      [NP_FAMILY]: ['nurse-practitioner', null, false],
    });
  });

  it('keeps a repeated code once, primary when any of its slots says Y', () => {
    expect(flagsOf(2)).toEqual({
      [NP_FAMILY]: ['nurse-practitioner', true, true],
      [NP]: ['nurse-practitioner', false, false],
    });
  });

  it('puts codes unknown to NUCC in the unmapped classification, one of them representative', () => {
    expect(flagsOf(3)).toEqual({
      [UNKNOWN_A]: ['unmapped', false, true],
      [UNKNOWN_B]: ['unmapped', false, false],
      [NP]: ['nurse-practitioner', true, true],
    });
  });

  it('makes no code primary when the primary switch is on an empty slot', () => {
    expect(flagsOf(4)).toEqual({ [NP]: ['nurse-practitioner', null, true] });
  });
});
