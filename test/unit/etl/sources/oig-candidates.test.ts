/** The OIG possible-match matcher, run through DuckDB on staged rows: every evidence value, strength and order. */
import { type Candidate, OigStage } from './oig-stage';

let stage: OigStage;
beforeAll(async () => {
  stage = await OigStage.open();
});
afterAll(() => stage.close());
beforeEach(() => stage.clear());

const NPI = '1234567893';
const OTHER_NPI = '1245319599';

async function only(): Promise<Candidate> {
  const { byNpi } = await stage.match();
  expect([...byNpi.keys()]).toEqual([NPI]);
  const list = byNpi.get(NPI) ?? [];
  expect(list).toHaveLength(1);
  return list[0] as Candidate;
}

async function none(): Promise<void> {
  const { byNpi } = await stage.match();
  expect(byNpi.size).toBe(0);
}

const person = { npi: NPI, last: 'SMITH', first: 'JOHN', city: 'AUSTIN', state: 'TX', zip: '78701' };
const leiePerson = { last: 'SMITH', first: 'JOHN', city: 'AUSTIN', state: 'TX', zip: '78701' };

describe('buildOigCandidates: individuals', () => {
  it('writes the wire candidate with every evidence member, in the contract order, and never the DOB', async () => {
    await stage.nppes({ ...person, middle: 'Q', mailCity: 'DALLAS', mailState: 'TX', mailZip: '75201' });
    await stage.leie({ ...leiePerson, middle: 'QUINCY', dob: '19600101', general: 'PHYSICIAN (MD, DO)' });
    const { rows } = await stage.match();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.candidate_count).toBe(1);
    const text = rows[0]?.candidates ?? '';
    expect(text).not.toContain('19600101');
    const [c] = JSON.parse(text) as Candidate[];
    expect(Object.keys(c as object)).toEqual(['strength', 'evidence', 'leie']);
    expect(Object.keys(c?.evidence ?? {})).toEqual([
      'last_name',
      'first_name',
      'middle_name',
      'business_name',
      'state',
      'city',
      'zip',
    ]);
    expect(c).toEqual({
      strength: 'strong',
      evidence: {
        last_name: 'exact',
        first_name: 'exact',
        middle_name: 'initial',
        business_name: null,
        state: 'both',
        city: 'practice',
        zip: 'practice',
      },
      leie: {
        entity: 'individual',
        last_name: 'SMITH',
        first_name: 'JOHN',
        middle_name: 'QUINCY',
        business_name: null,
        general: 'PHYSICIAN (MD, DO)',
        specialty: null,
        city: 'AUSTIN',
        state: 'TX',
        zip: '78701',
        npi: null,
        exclusion_type: '1128a1',
        exclusion_date: '2020-01-15',
      },
    });
    expect(Object.keys(c?.leie ?? {})).toEqual(Object.keys((c as Candidate).leie));
  });

  it('says mailing when only the mailing address agrees, and keeps it strong', async () => {
    await stage.nppes({
      ...person,
      city: 'HOUSTON',
      zip: '77001',
      mailCity: 'Austin',
      mailState: 'tx',
      mailZip: '78701',
    });
    await stage.leie(leiePerson);
    const c = await only();
    expect(c.strength).toBe('strong');
    expect(c.evidence).toMatchObject({ state: 'both', city: 'mailing', zip: 'mailing' });
  });

  it('keeps a full-name match without any place agreement, as weak', async () => {
    await stage.nppes({ ...person, city: 'BOSTON', state: 'MA', zip: '02108' });
    await stage.leie(leiePerson);
    const c = await only();
    expect(c.strength).toBe('weak');
    expect(c.evidence).toMatchObject({ last_name: 'exact', first_name: 'exact', state: null, city: null, zip: null });
  });

  it('is weak on a state agreement alone', async () => {
    await stage.nppes({ ...person, city: 'DALLAS', zip: '75201' });
    await stage.leie(leiePerson);
    const c = await only();
    expect(c.strength).toBe('weak');
    expect(c.evidence).toMatchObject({ state: 'practice', city: null, zip: null });
  });

  it('keeps a first initial only with a place agreement, as weak', async () => {
    await stage.nppes({ ...person, first: 'J' });
    await stage.leie(leiePerson);
    const c = await only();
    expect(c.strength).toBe('weak');
    expect(c.evidence.first_name).toBe('initial');
    await stage.clear();
    await stage.nppes({ ...person, first: 'J', city: 'BOSTON', state: 'MA', zip: '02108' });
    await stage.leie(leiePerson);
    await none();
  });

  it('drops two different full first names with the same initial', async () => {
    await stage.nppes({ ...person, first: 'JAMES' });
    await stage.leie(leiePerson);
    await none();
  });

  it('forbids strong on a middle-name conflict, and says exact or initial otherwise', async () => {
    await stage.nppes({ ...person, middle: 'ROBERT' });
    await stage.leie({ ...leiePerson, middle: 'ALAN' });
    const conflict = await only();
    expect(conflict.strength).toBe('weak');
    expect(conflict.evidence.middle_name).toBeNull();
    await stage.clear();
    await stage.nppes({ ...person, middle: 'Robert' });
    await stage.leie({ ...leiePerson, middle: 'ROBERT' });
    expect(await only()).toMatchObject({ strength: 'strong', evidence: { middle_name: 'exact' } });
    await stage.clear();
    await stage.nppes({ ...person, middle: null });
    await stage.leie({ ...leiePerson, middle: 'ROBERT' });
    expect(await only()).toMatchObject({ strength: 'strong', evidence: { middle_name: null } });
  });

  it.each([
    ['a suffix on either side', 'SMITH JR.', 'SMITH', 'exact'],
    ['a degree', 'SMITH, M.D.', 'SMITH', 'exact'],
    ['a roman numeral', 'SMITH III', 'SMITH', 'exact'],
    ['a hyphenated name for one of its parts', 'GARCIA-LOPEZ', 'LOPEZ', 'part'],
    ['the other part', 'GARCIA', 'GARCIA LOPEZ', 'part'],
    ['a two-word name written as one', 'DE LA CRUZ', 'DELACRUZ', 'exact'],
    ['an apostrophe', "O'BRIEN", 'OBRIEN', 'exact'],
    ['accents and case', 'Muñoz', 'MUNOZ', 'exact'],
    ['a surname that is itself a degree token', 'DO', 'DO', 'exact'],
  ])('matches last names with %s', async (_what, nppesLast, leieLast, evidence) => {
    await stage.nppes({ ...person, last: nppesLast });
    await stage.leie({ ...leiePerson, last: leieLast });
    expect((await only()).evidence.last_name).toBe(evidence);
  });

  it('never matches two hyphenated names on a shared part alone', async () => {
    await stage.nppes({ ...person, last: 'GARCIA-LOPEZ' });
    await stage.leie({ ...leiePerson, last: 'GARCIA-MARTINEZ' });
    await none();
  });

  it('skips a deactivated NPI, a rejected row, and an NPI whose latest row is another name', async () => {
    await stage.nppes({ ...person, status: 'deactivated' });
    await stage.nppes({ ...person, npi: OTHER_NPI, status: 'rejected' });
    await stage.nppes({ ...person, npi: '1003000126' });
    await stage.nppes({ ...person, npi: '1003000126', last: 'JONES', src: 1 });
    await stage.leie(leiePerson);
    await none();
  });

  it('skips LEIE rows whose NPI is in NPPES, rejected rows and reinstated exclusions; keeps an NPI NPPES lacks', async () => {
    await stage.nppes(person);
    await stage.nppes({ npi: OTHER_NPI, last: 'DOE', first: 'JANE', status: 'deactivated' });
    await stage.leie({ ...leiePerson, npi: OTHER_NPI });
    await stage.leie({ ...leiePerson, first: 'JOHN', reason: 'invalid NPI: 1' });
    await stage.leie({ ...leiePerson, dob: '19500101', date: '2019-03-01' });
    await stage.leie({ ...leiePerson, dob: '19500101', date: '2019-03-01', reinstated: '2021-05-01', src: 1 });
    await stage.leie({ ...leiePerson, npi: '1003000134', date: '2018-02-02' });
    const c = await only();
    expect(c.leie).toMatchObject({ npi: '1003000134', exclusion_date: '2018-02-02' });
  });

  it('orders strong first, then the latest exclusion, then by name; each LEIE row once', async () => {
    await stage.nppes(person);
    await stage.leie({ ...leiePerson, city: null, zip: null, date: '2024-01-01' });
    await stage.leie({ ...leiePerson, date: '2010-01-01' });
    await stage.leie({ ...leiePerson, date: '2015-01-01', type: '1128b4' });
    await stage.leie({ ...leiePerson, date: '2015-01-01', type: '1128b4' });
    const { byNpi, rows } = await stage.match();
    const list = byNpi.get(NPI) ?? [];
    expect(list.map((c) => [c.strength, c.leie.exclusion_date])).toEqual([
      ['strong', '2015-01-01'],
      ['strong', '2010-01-01'],
      ['weak', '2024-01-01'],
    ]);
    expect(rows[0]?.candidate_count).toBe(3);
    // The change basis's form: the same candidates in the same order, each with its key, as earlier builds wrote it.
    const keyed = JSON.parse(String(rows[0]?.keyed)) as { key: string; candidate: Candidate }[];
    expect(keyed.map((k) => k.candidate)).toEqual(list);
    expect(keyed.every((k) => /^[0-9a-f]{32}$/.test(k.key))).toBe(true);
    expect(rows[0]?.keyed).toBe(rows[0]?.rederived);
  });
});

describe('buildOigCandidates: organisations', () => {
  const org = { npi: NPI, org: 'SUNSHINE HOME HEALTH CARE, INC.', city: 'MIAMI', state: 'FL', zip: '33101' };

  it.each([
    ['legal suffixes and punctuation', 'SUNSHINE HOME HEALTH CARE LLC'],
    ['a leading THE and P.C.', 'THE SUNSHINE HOME HEALTH CARE P.C.'],
    ['case', 'Sunshine Home Health Care Corp'],
  ])('matches the legal business name across %s', async (_what, busname) => {
    await stage.nppes(org);
    await stage.leie({ business: busname, city: 'MIAMI', state: 'FL', zip: '33101' });
    const c = await only();
    expect(c).toMatchObject({
      strength: 'strong',
      evidence: { business_name: 'legal', last_name: null, first_name: null, middle_name: null, city: 'practice' },
      leie: { entity: 'organization', business_name: busname, last_name: null },
    });
  });

  it('treats & and AND alike, and matches the other organisation name', async () => {
    await stage.nppes({ ...org, org: 'ACME HOLDINGS LLC', otherOrg: 'SMITH & JONES PHARMACY' });
    await stage.leie({ business: 'SMITH AND JONES PHARMACY INC', state: 'GA' });
    const c = await only();
    expect(c).toMatchObject({ strength: 'weak', evidence: { business_name: 'other', state: null } });
  });

  it('prefers legal when both names agree, and never matches an organisation to a person', async () => {
    await stage.nppes({ ...org, otherOrg: 'SUNSHINE HOME HEALTH CARE' });
    await stage.nppes({ npi: OTHER_NPI, last: 'SUNSHINE', first: 'HOME' });
    await stage.leie({ business: 'SUNSHINE HOME HEALTH CARE' });
    expect((await only()).evidence.business_name).toBe('legal');
  });

  it('finds a name the LEIE cut at its 30-character field as the start of the NPPES name', async () => {
    await stage.nppes({ ...org, org: 'A & E MEDICAL EQUIPMENT OF SOUTH FLORIDA, INC.' });
    // 30 characters, as the LEIE writes it, cut: the NPPES name goes on.
    await stage.leie({ business: 'A & E MEDICAL EQUIPMENT OF SOU', city: 'MIAMI', state: 'FL', zip: '33101' });
    expect(await only()).toMatchObject({ strength: 'strong', evidence: { business_name: 'legal_prefix' } });
  });

  it('looks for a shorter name only as a whole, and a cut name as a prefix of the other name too', async () => {
    await stage.nppes({ ...org, org: 'SUNSHINE HOME HEALTH CARE AND HOSPICE OF MIAMI' });
    await stage.leie({ business: 'SUNSHINE HOME HEALTH CARE' });
    await none();
    await stage.clear();
    await stage.nppes({ ...org, org: 'ACME HOLDINGS LLC', otherOrg: 'SUNSHINE HOME HEALTH CARE AND HOSPICE' });
    // Cut just after a space: staged trimmed, 29 characters.
    await stage.leie({ business: 'SUNSHINE HOME HEALTH CARE AND ', state: 'GA' });
    expect(await only()).toMatchObject({ strength: 'weak', evidence: { business_name: 'other_prefix' } });
  });

  it('drops a different business name', async () => {
    await stage.nppes(org);
    await stage.leie({ business: 'SUNSHINE HOME CARE INC' });
    await none();
  });
});
