/**
 * The OIG labelled set's builder (tools/oig/labelled-set.ts, variants in tools/oig/labelled-variants.ts): the rows
 * it starts from, its counts, fresh valid NPIs, CMS's 330 columns, and each variant as its definition says.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isValidNpi } from '../../../../data-contracts/npi-check';
import { parseCsvRows } from '../../../../etl/csv/read';
import {
  buildLabelledSet,
  type LabelledRecord,
  nppesHeader,
  readLeieRows,
  writeLabelledSet,
} from '../../../../tools/oig/labelled-set';
import { INDIVIDUAL_VARIANTS, ORGANISATION_VARIANTS, roughKey } from '../../../../tools/oig/labelled-variants';

const SOURCE = path.resolve(__dirname, '../../../fixtures/source-data');
const leie = [...readLeieRows(path.join(SOURCE, 'leie.csv')), ...readLeieRows(path.join(SOURCE, 'leie_head.csv'))];
const set = buildLabelledSet();
const positives = set.records.filter((r) => r.kind === 'positive');
const negatives = set.records.filter((r) => r.kind === 'negative');
const positiveOf = (r: LabelledRecord) =>
  positives.find((p) => p.source === r.source && p.variant === r.of) as LabelledRecord;

describe('the OIG labelled set', () => {
  it('starts from the 30 NPI-carrying individuals of leie.csv and the 15 of leie_head.csv, all organisations', () => {
    const byFile = (file: string) => set.sources.filter((s) => s.file === file);
    expect(byFile('leie.csv')).toHaveLength(30);
    expect(byFile('leie.csv').every((s) => s.fields.BUSNAME === '')).toBe(true);
    expect(byFile('leie_head.csv')).toHaveLength(15);
    expect(byFile('leie_head.csv').every((s) => s.fields.BUSNAME !== '')).toBe(true);
  });

  it('builds 6 positives per row and 3 negatives per positive: 270 and 810', () => {
    expect(positives).toHaveLength(270);
    expect(negatives).toHaveLength(810);
    for (const source of set.sources) {
      const variants = positives.filter((p) => p.source === source).map((p) => p.variant);
      expect(variants).toEqual(source.fields.BUSNAME ? [...ORGANISATION_VARIANTS] : [...INDIVIDUAL_VARIANTS]);
    }
    for (const p of positives) expect(negatives.filter((n) => n.source === p.source && n.of === p.of)).toHaveLength(3);
  });

  it('labels a positive with its LEIE row and a negative with none', () => {
    for (const p of positives) expect(p.label).toBe(p.source.fields.NPI);
    for (const n of negatives) expect(n.label).toBeNull();
  });

  it('gives every record a fresh valid NPI that no LEIE row carries', () => {
    const npis = set.records.map((r) => r.npi);
    expect(new Set(npis).size).toBe(npis.length);
    expect(npis.every(isValidNpi)).toBe(true);
    const leieNpis = new Set(leie.map((r) => r.fields.NPI));
    expect(npis.filter((n) => leieNpis.has(n))).toEqual([]);
  });

  it('writes CMS form: the real 330-column header, every field quoted, one line per record', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pf-labelled-'));
    try {
      const { nppes, labels } = writeLabelledSet(dir, set);
      const text = readFileSync(nppes, 'utf8');
      const [headerLine, ...lines] = text.trimEnd().split('\n');
      expect(headerLine).toBe(nppesHeader().line);
      expect(lines).toHaveLength(1080);
      const rows = parseCsvRows(text);
      expect(rows.every((r) => r.length === 330)).toBe(true);
      expect(lines.every((l) => l.startsWith('"') && l.endsWith('"') && l.split('","').length === 330)).toBe(true);
      expect(readFileSync(labels, 'utf8').trimEnd().split('\n')).toHaveLength(1081);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('makes each individual positive as its variant says', () => {
    for (const p of positives.filter((r) => r.draft.entity === 'individual')) {
      const f = p.source.fields;
      const d = p.draft;
      expect(d.first).toBe(f.FIRSTNAME);
      const atLeie = { line1: f.ADDRESS, city: f.CITY, state: f.STATE, zip: f.ZIP };
      expect(d.mailing).toEqual(atLeie);
      if (p.variant !== 'city_moved') expect(d.practice).toEqual(atLeie);
      if (p.variant === 'middle_dropped') expect(d.middle).toBe('');
      if (p.variant === 'middle_initial')
        expect(d.middle).toMatch(f.MIDNAME ? new RegExp(`^${f.MIDNAME[0]}$`) : /^[A-Z]$/);
      if (p.variant === 'suffix_added') {
        const inLast = d.last.startsWith(`${f.LASTNAME} `) && /^(JR|SR|II|III)$/.test(d.last.split(' ').pop() ?? '');
        expect(inLast || /^(JR|SR|II|III)$/.test(d.suffix)).toBe(true);
      }
      if (p.variant === 'hyphenated') expect(d.last.split('-')).toContain(f.LASTNAME);
      if (p.variant === 'city_moved') {
        expect(d.practice.state).toBe(f.STATE);
        expect(d.practice.city).not.toBe(f.CITY);
        expect(d.practice.zip.slice(0, 3)).not.toBe(f.ZIP?.slice(0, 3));
      }
    }
  });

  it('makes each organisation positive carry the LEIE name in one of its two names, changed as its variant says', () => {
    for (const p of positives.filter((r) => r.draft.entity === 'organization')) {
      const name = p.source.fields.BUSNAME as string;
      const d = p.draft;
      if (p.variant === 'exact') expect(d.org).toBe(name);
      if (p.variant === 'other_name') expect(d.otherOrg).toBe(name);
      else expect(d.otherOrg).toBe('');
      if (['suffix_changed', 'and_ampersand', 'punctuation_case'].includes(p.variant)) expect(d.org).not.toBe(name);
      if (p.variant === 'punctuation_case') expect(d.org).not.toMatch(/,/);
    }
  });

  it('makes negatives that no LEIE row of that name can claim by place, or by first name', () => {
    const rowsNamed = (key: string) =>
      leie.filter((r) => roughKey(r.fields.BUSNAME || r.fields.LASTNAME || '') === key);
    // Problems are collected, not asserted one by one: 810 records times their checks.
    const problems: string[] = [];
    for (const n of negatives) {
      const p = positiveOf(n);
      const f = n.source.fields;
      const same = rowsNamed(roughKey(f.BUSNAME || f.LASTNAME || ''));
      const say = (what: string) => problems.push(`${n.npi} ${n.variant} of ${n.of}: ${what}`);
      if (n.variant.includes('other_state')) {
        for (const row of same) {
          for (const at of [n.draft.practice, n.draft.mailing]) {
            if (at.state === row.fields.STATE || at.city === row.fields.CITY || at.zip.slice(0, 5) === row.fields.ZIP)
              say(`agrees on place with ${row.file}:${row.line}`);
          }
        }
      } else if (JSON.stringify(n.draft.practice) !== JSON.stringify(p.draft.practice)) say('moved');
      const names = (r: LabelledRecord) => [r.draft.last, r.draft.first, r.draft.org, r.draft.otherOrg].join('|');
      if (n.variant === 'same_name_other_state' && names(n) !== names(p)) say('renamed');
      if (n.draft.entity === 'individual' && n.variant !== 'same_name_other_state') {
        const firsts = same.map((r) => roughKey((r.fields.FIRSTNAME ?? '').split(' ')[0] ?? ''));
        if (firsts.includes(n.draft.first)) say('a first name of an LEIE row of that last name');
        if ((n.draft.first[0] === f.FIRSTNAME?.[0]) !== (n.variant === 'same_state_same_initial')) say('initial');
      }
    }
    expect(problems).toEqual([]);
  });
});
