import fc from 'fast-check';
import {
  csvField,
  FREE_PROVIDER_CSV_COLUMNS,
  flattenProvider,
  PAID_PROVIDER_CSV_COLUMNS,
  toCsv,
} from '../../../data-contracts/csv';
import { lockedField } from '../../../data-contracts/rows';
import type { Provider } from '../../../data-contracts/types';
import { parseCsvTable } from '../../helpers/csv-body';

describe('csvField', () => {
  it.each([
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+1 555', "'+1 555"],
    ['-2+3', "'-2+3"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
  ])('neutralises the formula-looking text %j', (input, expected) => {
    expect(csvField(input)).toBe(expected);
  });

  it('quotes a neutralised cell that also needs quotes', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvField('\rline')).toBe('"\'\rline"');
  });

  it('writes numbers as numbers, negative ones included, and nulls as empty cells', () => {
    expect(csvField(-122.4194)).toBe('-122.4194');
    expect(csvField(0)).toBe('0');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(true)).toBe('true');
  });

  it('round-trips any text through a strict RFC 4180 reader (after neutralisation)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 2, maxLength: 2 }), { maxLength: 20 }), (cells) => {
        const text = toCsv(
          ['a', 'b'],
          cells.map(([a, b]) => ({ a, b })),
        );
        const parsed = parseCsvTable(text);
        expect(parsed.header).toEqual(['a', 'b']);
        parsed.rows.forEach((row, n) => {
          const source = cells[n] as string[];
          expect(row).toEqual(source.map((v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)));
        });
      }),
    );
  });
});

describe('flattenProvider', () => {
  const paid: Provider = {
    entity_id: 'glp1-000001',
    slug: 'harbor-clinic',
    vertical: 'glp1',
    name: 'Harbor, "The" Clinic',
    city: 'Boston',
    state: 'MA',
    business_mode: 'both',
    latitude: 42.36,
    longitude: -71.06,
    npi: '1234567893',
    certification: {
      status: 'verified',
      source: 'Board',
      source_url: 'https://x.example',
      verified_at: '2026-01-01T00:00:00Z',
    },
    license: { status: 'verified', source: 'MA board', source_url: null, verified_at: null, states_count: 3 },
    fda: { status: 'clear', source: 'FDA warning letters list', source_url: null, verified_at: '2026-11-01T00:00:00Z' },
    oig: { excluded: true, type: '1128b4', date: '2013-12-19', source: 'oig_leie', checked_at: '2026-10-03T00:00:00Z' },
    price: { range: '$199-$349/mo', monthly_min: 199, monthly_max: 349, source: 'Website', verified_at: null },
  };

  it('fills every paid column for a paid provider', () => {
    const record = flattenProvider(paid);
    for (const column of PAID_PROVIDER_CSV_COLUMNS) expect(column in record).toBe(true);
    expect(record.license_states_count).toBe(3);
    expect(record.oig_match).toBe('excluded');
    expect(record.oig_type).toBe('1128b4');
  });

  it('gives a free (locked) provider no paid cells at all', () => {
    const free: Provider = {
      ...paid,
      certification: lockedField(),
      license: lockedField(),
      fda: lockedField(),
      price: lockedField(),
      oig: { npi_match: 'none', note: 'not a clearance' },
    };
    const record = flattenProvider(free);
    expect(Object.keys(record).sort()).toEqual([...FREE_PROVIDER_CSV_COLUMNS].sort());
    expect(record.oig_match).toBe('none');
    const text = toCsv(PAID_PROVIDER_CSV_COLUMNS, [record]);
    const [row] = parseCsvTable(text).rows;
    const byColumn = Object.fromEntries(PAID_PROVIDER_CSV_COLUMNS.map((c, i) => [c, row?.[i]]));
    expect(byColumn.certification_status).toBe('');
    expect(byColumn.price_monthly_min).toBe('');
    expect(byColumn.name).toBe('Harbor, "The" Clinic');
  });
});
