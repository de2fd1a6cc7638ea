/**
 * The matcher's properties over random small worlds of NPPES and LEIE rows drawn from small pools (so that names
 * and places collide often): a strong candidate always has a place agreement, every kept candidate obeys the
 * rules, and case, punctuation and accents in NPPES's names and cities never change a match.
 */
import fc from 'fast-check';
import { nameVariant } from '../transforms/oig-name-arbitraries';
import { type Candidate, type LeieRow, type NppesRow, OigStage } from './oig-stage';

let stage: OigStage;
beforeAll(async () => {
  stage = await OigStage.open();
});
afterAll(() => stage.close());

const LAST = ['SMITH', 'GARCIA LOPEZ', 'GARCIA', 'NGUYEN', 'DE LA CRUZ', 'OBRIEN'];
const FIRST = ['JOHN', 'J', 'JANE', 'MARIA', 'M'];
const MIDDLE = [null, 'A', 'ANN', 'B'];
const ORGS = ['SUNSHINE HEALTH', 'SUNSHINE HEALTH INC', 'ACME AND SONS LLC', 'ACME PHARMACY'];
const PLACES = [
  { city: 'AUSTIN', state: 'TX', zip: '78701' },
  { city: 'DALLAS', state: 'TX', zip: '75201' },
  { city: 'MIAMI', state: 'FL', zip: '33101' },
];

const place = fc.constantFrom(...PLACES);
const nppesPerson = fc.record({
  last: fc.constantFrom(...LAST),
  first: fc.constantFrom(...FIRST),
  middle: fc.constantFrom(...MIDDLE),
  practice: place,
  mailing: place,
});
const nppesOrg = fc.record({
  org: fc.constantFrom(...ORGS),
  other: fc.constantFrom(null, ...ORGS),
  practice: place,
  mailing: place,
});
const leiePerson = fc.record({
  last: fc.constantFrom(...LAST),
  first: fc.constantFrom(...FIRST),
  middle: fc.constantFrom(...MIDDLE),
  at: place,
});
const leieOrg = fc.record({ business: fc.constantFrom(...ORGS), at: place });
const world = fc.record({
  people: fc.array(nppesPerson, { minLength: 1, maxLength: 5 }),
  orgs: fc.array(nppesOrg, { maxLength: 3 }),
  leiePeople: fc.array(leiePerson, { minLength: 1, maxLength: 5 }),
  leieOrgs: fc.array(leieOrg, { maxLength: 3 }),
});
type World = typeof world extends fc.Arbitrary<infer W> ? W : never;

/** The NPI of the i-th NPPES row (valid check digits are not needed by the matcher). */
const npiOf = (i: number) => String(1000000000 + i);

function nppesRows(w: World): NppesRow[] {
  const people = w.people.map((p, i) => ({
    npi: npiOf(i),
    last: p.last,
    first: p.first,
    middle: p.middle,
    ...p.practice,
    mailCity: p.mailing.city,
    mailState: p.mailing.state,
    mailZip: p.mailing.zip,
  }));
  const orgs = w.orgs.map((o, i) => ({
    npi: npiOf(100 + i),
    org: o.org,
    otherOrg: o.other,
    ...o.practice,
    mailCity: o.mailing.city,
    mailState: o.mailing.state,
    mailZip: o.mailing.zip,
  }));
  return [...people, ...orgs];
}

function leieRows(w: World): LeieRow[] {
  return [
    ...w.leiePeople.map((p, i) => ({
      last: p.last,
      first: p.first,
      middle: p.middle,
      ...p.at,
      date: `2020-01-${10 + i}`,
    })),
    ...w.leieOrgs.map((o, i) => ({ business: o.business, ...o.at, date: `2021-01-${10 + i}` })),
  ];
}

async function run(nppes: NppesRow[], leie: LeieRow[]): Promise<Map<string, Candidate[]>> {
  await stage.clear();
  for (const row of nppes) await stage.nppes(row);
  for (const row of leie) await stage.leie(row);
  return (await stage.match()).byNpi;
}

const placeAgrees = (c: Candidate) => [c.evidence.state, c.evidence.city, c.evidence.zip].some((v) => v !== null);

describe('buildOigCandidates (property)', () => {
  it('gives a strong candidate a city or ZIP agreement, and keeps only what the rules keep', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const byNpi = await run(nppesRows(w), leieRows(w));
        for (const candidates of byNpi.values()) {
          for (const c of candidates) {
            if (c.strength === 'strong') expect(c.evidence.city !== null || c.evidence.zip !== null).toBe(true);
            if (c.leie.entity === 'individual') {
              expect(c.evidence.last_name).not.toBeNull();
              expect(c.evidence.first_name === 'exact' || (c.evidence.first_name === 'initial' && placeAgrees(c))).toBe(
                true,
              );
              expect(c.evidence.business_name).toBeNull();
            } else expect(c.evidence.business_name).not.toBeNull();
          }
          const strengths = candidates.map((c) => c.strength);
          expect(strengths).toEqual([...strengths].sort((a, b) => (a === b ? 0 : a === 'strong' ? -1 : 1)));
        }
      }),
      { numRuns: 15 },
    );
  });

  it('never changes a match with the case, punctuation or accents of NPPES names and cities', async () => {
    const respelled = world.chain((w) => {
      const rows = nppesRows(w);
      const variants = rows.map((r) =>
        fc.record({
          last: r.last ? nameVariant(r.last) : fc.constant(null),
          first: r.first ? nameVariant(r.first) : fc.constant(null),
          org: r.org ? nameVariant(r.org) : fc.constant(null),
          city: nameVariant(r.city as string),
          mailCity: nameVariant(r.mailCity as string),
        }),
      );
      return fc.tuple(fc.constant(w), fc.tuple(...variants));
    });
    await fc.assert(
      fc.asyncProperty(respelled, async ([w, variants]) => {
        const rows = nppesRows(w);
        const before = await run(rows, leieRows(w));
        const after = await run(
          rows.map((r, i) => ({ ...r, ...variants[i], ...(r.org ? {} : { org: null }) })),
          leieRows(w),
        );
        expect(after).toEqual(before);
      }),
      { numRuns: 10 },
    );
  });
});
