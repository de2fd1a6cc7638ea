/**
 * The value tables the demo and benchmark feeds draw from (./feed-builder.ts, ./feed-observations.ts): fictional
 * name parts, certifying bodies, price points, and per tier and signal the mix of observation statuses. Data only.
 */
import type { PublishTier, SignalName, SignalStatus } from '../../data-contracts/constants';

// Provider names

export const NAME_PREFIXES = [
  'Harborview',
  'Summit',
  'Cedar Ridge',
  'Lakeshore',
  'Bluebird',
  'Northstar',
  'Evergreen',
  'Granite Peak',
  'Silver Maple',
  'Crescent',
  'Riverbend',
  'Meadowlark',
  'Copper Canyon',
  'Juniper',
  'Tidewater',
  'Oak Hollow',
  'Prairie Sky',
  'Redwood Trail',
  'Sandstone',
  'Willow Creek',
  'Brightwater',
  'Clearbrook',
  'Highland Pines',
  'Ironwood',
  'Larkspur',
  'Pinecrest',
  'Quail Run',
  'Sagebrush',
  'Stonegate',
  'Sunrise Valley',
  'Trailhead',
  'Wildflower',
  'Aspen Grove',
  'Lantern Bay',
  'Cobalt',
  'Driftwood',
  'Foxglove',
  'Kestrel',
  'Bramblewood',
  'Mossy Oak',
  'Seabright',
  'Thistle',
  'Amberly',
  'Rosewater',
  'Fernhill',
  'Goldcrest',
  'Marigold',
  'Saltmarsh',
] as const;
export const IN_PERSON_DESCRIPTORS = [
  'Metabolic Health',
  'GLP-1 Clinic',
  'Weight Care',
  'Medical Weight Loss',
  'Metabolic Wellness',
  'Endocrine & Weight Center',
  'Obesity Medicine Associates',
  'Weight Management Partners',
  'Metabolic Medicine',
  'Lean Health Clinic',
  'Body Composition Clinic',
  'Family Weight Clinic',
] as const;
export const ONLINE_DESCRIPTORS = [
  'Telehealth Weight Program',
  'Virtual GLP-1 Care',
  'Online Metabolic Health',
  'Digital Weight Clinic',
  'TeleMetabolic',
  'Remote Weight Care',
] as const;
export const LEGAL_SUFFIXES = ['LLC', 'PLLC', 'P.C.', 'Inc.', 'P.A.', 'Medical Group, Inc.'] as const;

// Observations

export const CERTIFYING_BODIES = [
  { name: 'Telehealth Practice Certification Board', url: 'https://tpcb.example.org/verify/' },
  { name: 'National Council for Metabolic Care Accreditation', url: 'https://ncmca.example.org/directory/' },
  { name: 'Digital Prescriber Review Council', url: 'https://dprc.example.org/lookup/' },
] as const;

export const FDA_LIST_URL =
  'https://www.fda.gov/inspections-compliance-enforcement-and-criminal-investigations/compliance-actions-and-activities/warning-letters';
export const FDA_SOURCE = 'U.S. Food and Drug Administration, Warning Letters';

export const PRICE_FLOORS = [99, 129, 149, 179, 199, 229, 249, 299, 349, 399, 449] as const;
export const PRICE_SPREADS = [0, 50, 100, 150, 200, 250, 300] as const;

export type StatusMix = readonly (readonly [SignalStatus | null, number])[];

/** Per signal and tier, how likely each status is (`null`: no curated observation for that signal). */
export const STATUS_MIX = {
  verified: {
    license: [
      ['verified', 78],
      ['reported', 10],
      ['unverified', 7],
      [null, 5],
    ],
    certification: [
      ['verified', 50],
      ['reported', 12],
      ['unverified', 10],
      ['flagged', 3],
      [null, 25],
    ],
    fda: [
      ['clear', 6],
      ['not_screened', 3],
      [null, 91],
    ],
    price: [
      ['reported', 40],
      ['verified', 20],
      ['unverified', 8],
      [null, 32],
    ],
  },
  internal_only: {
    license: [
      ['verified', 25],
      ['reported', 15],
      ['unverified', 35],
      [null, 25],
    ],
    certification: [
      ['verified', 10],
      ['reported', 10],
      ['unverified', 25],
      ['flagged', 6],
      [null, 49],
    ],
    fda: [
      ['clear', 3],
      ['not_screened', 8],
      [null, 89],
    ],
    price: [
      ['reported', 25],
      ['verified', 5],
      ['unverified', 10],
      [null, 60],
    ],
  },
} as const satisfies Record<PublishTier, Record<SignalName, StatusMix>>;
