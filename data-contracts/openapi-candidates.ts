/**
 * The OIG possible matches of the OpenAPI document (`openapi.ts` spreads the schemas in): `OigCandidate`, its
 * `OigEvidence` and `OigCandidateLeie`, and the texts that say what a candidate is and is not. The ETL computes the
 * candidates (etl/sources/oig-candidates.ts); the wire carries them on NPI records and their count on identity rows.
 */
import { OIG_CANDIDATE_LEIE_MEMBERS } from './constants';
import { nullable, ref } from './openapi-parts';

/** What a candidate is, and is not: said wherever candidates or their count appear. */
export const OIG_CANDIDATES_RULES =
  'Possible matches between this NPPES record and LEIE exclusions that carry no NPI (or an NPI that NPPES does not ' +
  'have), found by name and place. A candidate is not a finding: it is a lead for a person to confirm or dismiss ' +
  'with the OIG\u2019s own online search (https://exclusions.oig.hhs.gov), comparing the date of birth and the ' +
  'address history that the API does not hold. No candidate is not a clearance either: a name may be spelt ' +
  'differently, or changed since the exclusion. `oig` (the NPI match) is unchanged by candidates. Order: strong ' +
  'first, then the latest exclusion date, then business name, last name, first name.';

/** The two strengths, defined once. */
export const OIG_STRENGTH_RULES =
  '`strong`: an individual whose last name agrees, whose first name agrees in full, with no conflicting middle ' +
  'initial, and whose city or ZIP agrees with the NPPES practice or mailing address; an organisation whose business ' +
  'name agrees (legal suffixes, `&`/AND and punctuation aside) and whose city or ZIP agrees. `weak`: every other ' +
  'candidate kept, such as a first initial only, or a state alone. The LEIE address is the one at exclusion time, ' +
  'so a weak candidate is no less worth checking.';

const PLACE = { type: ['string', 'null'], enum: ['practice', 'mailing', 'both', null] } as const;
const TEXT = nullable('string');

const EXAMPLE_CANDIDATE = {
  strength: 'strong',
  evidence: {
    last_name: 'exact',
    first_name: 'exact',
    middle_name: null,
    business_name: null,
    state: 'practice',
    city: 'practice',
    zip: null,
  },
  leie: {
    entity: 'individual',
    last_name: 'FAWCETT',
    first_name: 'KYLEE',
    middle_name: null,
    business_name: null,
    general: 'NURSING PROFESSION',
    specialty: 'NURSE/NURSES AIDE',
    city: 'PHOENIX',
    state: 'AZ',
    zip: '85017',
    npi: null,
    exclusion_type: '1128b4',
    exclusion_date: '2019-03-20',
  },
} as const;

/** A candidate as the examples show it. */
export const OIG_CANDIDATE_EXAMPLE = EXAMPLE_CANDIDATE;

/** The candidates' schemas. */
export const oigCandidateSchemas = {
  OigCandidate: {
    type: 'object',
    additionalProperties: false,
    description: `A possible match: never a finding. ${OIG_STRENGTH_RULES}`,
    required: ['strength', 'evidence', 'leie'],
    properties: {
      strength: { type: 'string', enum: ['strong', 'weak'] },
      evidence: ref('OigEvidence'),
      leie: ref('OigCandidateLeie'),
    },
  },
  OigEvidence: {
    type: 'object',
    additionalProperties: false,
    description:
      'Which fields agreed and how; null: did not agree (or one side is empty). Names are compared without case, ' +
      'accents, punctuation or suffixes (JR, MD, INC, LLC, ...). Place: which NPPES address agreed with the LEIE ' +
      'one (state, city, 5-digit ZIP).',
    required: ['last_name', 'first_name', 'middle_name', 'business_name', 'state', 'city', 'zip'],
    properties: {
      last_name: {
        type: ['string', 'null'],
        enum: ['exact', 'part', null],
        description: '`part`: one part of a hyphenated or two-word last name.',
      },
      first_name: {
        type: ['string', 'null'],
        enum: ['exact', 'initial', null],
        description: '`initial`: one side gives the first initial only.',
      },
      middle_name: { type: ['string', 'null'], enum: ['exact', 'initial', null] },
      business_name: {
        type: ['string', 'null'],
        enum: ['legal', 'other', 'legal_prefix', 'other_prefix', null],
        description:
          'Which NPPES name matched: the legal business name or the other organisation name; `*_prefix` when the ' +
          'LEIE name fills its 30-character field (the LEIE cuts longer names) and is the start of that name.',
      },
      state: PLACE,
      city: PLACE,
      zip: PLACE,
    },
  },
  OigCandidateLeie: {
    type: 'object',
    additionalProperties: false,
    description:
      'The LEIE row\u2019s identifying fields, as listed (the date of birth and the street address are never shown).',
    required: [...OIG_CANDIDATE_LEIE_MEMBERS],
    properties: {
      entity: { type: 'string', enum: ['individual', 'organization'] },
      last_name: TEXT,
      first_name: TEXT,
      middle_name: TEXT,
      business_name: TEXT,
      general: TEXT,
      specialty: TEXT,
      city: TEXT,
      state: TEXT,
      zip: nullable('string', { pattern: '^[0-9]{5}$' }),
      npi: nullable('string', {
        description: 'The NPI the LEIE row carries, which no NPPES record of this snapshot has; null when none.',
      }),
      exclusion_type: nullable('string', { description: 'LEIE EXCLTYPE.' }),
      exclusion_date: nullable('string', { format: 'date' }),
    },
  },
} as const;
