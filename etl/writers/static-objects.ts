/**
 * The snapshot's static objects (coverage.json, coverage.html, sample.json, sample.csv, openapi.json), validated
 * against the OpenAPI document's component schemas before anything is published: an invalid object fails the run.
 * The coverage page is rendered from the same validated coverage object as coverage.json.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { PUBLIC_KEYS } from '../../data-contracts/layout';
import openapiDocument from '../../data-contracts/openapi.json';
import type { CoverageStats, SampleResponse } from '../../data-contracts/types';
import type { ObjectStore } from '../../platform/object-store';
import { CONTENT_TYPES } from '../../platform/snapshot-protocol';
import { renderCoverageHtml } from '../pages/coverage-page';
import { type CoverageInput, computeCoverage, computeSample } from './coverage';

const OPENAPI_ID = 'https://providerfacts.example.com/openapi.json';

// strict: false because the document carries OpenAPI keywords (`openapi`, `paths`, `example`) next to the schemas.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: OPENAPI_ID, components: openapiDocument.components });

function validatorOf(component: 'CoverageStats' | 'SampleResponse') {
  const validate = ajv.getSchema(`${OPENAPI_ID}#/components/schemas/${component}`);
  if (!validate) throw new Error(`OpenAPI component ${component} not found`);
  return validate;
}

/** Throws naming the object and the first schema violations when `value` does not match the component. */
export function assertMatchesComponent(
  component: 'CoverageStats' | 'SampleResponse',
  value: CoverageStats | SampleResponse,
): void {
  const validate = validatorOf(component);
  if (!validate(value)) {
    const problems = (validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`)
      .join('; ');
    throw new Error(`${component} does not match the OpenAPI schema: ${problems}`);
  }
}

/** The OpenAPI document, byte for byte as committed in data-contracts/openapi.json. */
export function openapiJsonText(): string {
  return `${JSON.stringify(openapiDocument, null, 2)}\n`;
}

export interface StaticObjects {
  coverage: string;
  /** The coverage page (HTML) of the same figures. */
  coveragePage: string;
  sampleJson: string;
  sampleCsv: string;
}

/** Validates and serialises coverage and sample, and renders the coverage page. */
export function renderStaticObjects(
  coverage: CoverageStats,
  sample: { json: SampleResponse; csv: string },
): StaticObjects {
  assertMatchesComponent('CoverageStats', coverage);
  assertMatchesComponent('SampleResponse', sample.json);
  return {
    coverage: `${JSON.stringify(coverage, null, 2)}\n`,
    coveragePage: renderCoverageHtml(coverage),
    sampleJson: `${JSON.stringify(sample.json, null, 2)}\n`,
    sampleCsv: sample.csv,
  };
}

/** Coverage and sample of a snapshot, with their validated serialisations. */
export interface ComputedStatics {
  coverage: CoverageStats;
  sample: { json: SampleResponse; csv: string };
  objects: StaticObjects;
}

/**
 * Computes coverage and sample from a snapshot's vertical Parquet and validates them: the one computation behind
 * both the build's `static/` objects and the hourly rebuild of the `public/` ones.
 */
export async function computeStaticObjects(
  connection: DuckDBConnection,
  input: CoverageInput,
): Promise<ComputedStatics> {
  const coverage = await computeCoverage(connection, input);
  const sample = await computeSample(connection, input.verifiedFiles, input.generatedAt);
  return { coverage, sample, objects: renderStaticObjects(coverage, sample) };
}

/**
 * Writes coverage, its page and the sample to the fixed `public/` keys (the build after its pointer switch, the
 * hourly rebuild).
 */
export async function publishPublicObjects(store: ObjectStore, objects: StaticObjects): Promise<void> {
  await store.put(PUBLIC_KEYS.coverage, objects.coverage, CONTENT_TYPES.json);
  await store.put(PUBLIC_KEYS.coveragePage, objects.coveragePage, CONTENT_TYPES.html);
  await store.put(PUBLIC_KEYS.sampleJson, objects.sampleJson, CONTENT_TYPES.json);
  await store.put(PUBLIC_KEYS.sampleCsv, objects.sampleCsv, CONTENT_TYPES.csv);
}
