/** The taxonomy codes a synthetic NPPES row draws (./generate-nppes.ts): the common codes, then every other NUCC code. */
import { readFileSync } from 'node:fs';
import { parseCsvRows } from '../../etl/csv/read';
import { createWeightedPicker, type WeightedPicker } from '../demo/random';
import {
  COMMON_INDIVIDUAL_CODES,
  COMMON_ORGANISATION_CODES,
  PHYSICIAN_GROUPING,
  RARE_CODE_WEIGHT,
} from './nppes-tables';

export interface TaxonomyChoice {
  code: string;
  credentials: readonly string[];
  license: string | null;
  kinds: readonly string[];
}

/** One weighted picker per entity type. */
export interface TaxonomyPickers {
  individual: WeightedPicker<TaxonomyChoice>;
  organisation: WeightedPicker<TaxonomyChoice>;
}

/** Weighted taxonomy pickers for individuals and organisations, from the NUCC file plus the common-code tables. */
export function createTaxonomyPickers(nuccFile: string): TaxonomyPickers {
  const [header, ...rows] = parseCsvRows(readFileSync(nuccFile, 'utf8'));
  const col = (name: string) => header?.indexOf(name) ?? -1;
  const [iCode, iGrouping, iSection] = [col('Code'), col('Grouping'), col('Section')];
  const nucc = new Map(
    rows.map((r) => [r[iCode] as string, { grouping: r[iGrouping] ?? '', section: r[iSection] ?? '' }]),
  );
  const missing = [...COMMON_INDIVIDUAL_CODES, ...COMMON_ORGANISATION_CODES].filter((c) => !nucc.has(c.code));
  if (missing.length > 0) throw new Error(`taxonomy codes not in NUCC: ${missing.map((m) => m.code).join(', ')}`);

  const individual: [TaxonomyChoice, number][] = COMMON_INDIVIDUAL_CODES.map((c) => [
    { code: c.code, credentials: c.credentials, license: c.license, kinds: [] },
    c.weight,
  ]);
  const organisation: [TaxonomyChoice, number][] = COMMON_ORGANISATION_CODES.map((c) => [
    { code: c.code, credentials: [''], license: null, kinds: c.kinds },
    c.weight,
  ]);
  const common = new Set<string>([...COMMON_INDIVIDUAL_CODES, ...COMMON_ORGANISATION_CODES].map((c) => c.code));
  for (const [code, { grouping, section }] of nucc) {
    if (common.has(code)) continue;
    if (section === 'Individual' && grouping !== 'Group') {
      const physician = grouping === PHYSICIAN_GROUPING;
      individual.push([
        { code, credentials: physician ? ['MD', 'DO'] : ['', ''], license: physician ? 'MD' : 'L', kinds: [] },
        RARE_CODE_WEIGHT,
      ]);
    } else {
      organisation.push([
        { code, credentials: [''], license: null, kinds: ['HEALTH SERVICES', 'CARE', 'CENTER'] },
        RARE_CODE_WEIGHT,
      ]);
    }
  }
  return { individual: createWeightedPicker(individual), organisation: createWeightedPicker(organisation) };
}
