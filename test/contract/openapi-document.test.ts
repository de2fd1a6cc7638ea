import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ERROR_CODES, ERROR_STATUS } from '../../data-contracts/constants';
import { openApiDocument } from '../../data-contracts/openapi';

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1 with a real validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(openApiDocument)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('carries version 1.0.0', () => {
    expect(openApiDocument.info.version).toBe('1.0.0');
  });

  it('has the error-code enum equal to the code table', () => {
    expect([...openApiDocument.components.schemas.Error.properties.code.enum].sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
  });

  it('lists each path once, and says which also answer with a trailing slash', () => {
    const paths = openApiDocument.paths as Record<string, Record<string, unknown>>;
    for (const p of ['/providers', '/providers/{id}', '/coverage', '/sample', '/npi', '/npi/{npi}', '/docs']) {
      expect({ p, slash: paths[p]?.['x-trailing-slash'] }).toEqual({ p, slash: true });
      expect(paths[`${p}/`]).toBeUndefined();
    }
    expect(openApiDocument.info.description).toContain('x-trailing-slash: true');
  });

  it('names a contact and a licence', () => {
    expect(openApiDocument.info.contact).toEqual({
      name: expect.any(String),
      url: expect.stringMatching(/^https:\/\/providerfacts\.example\.com\//),
      email: expect.stringMatching(/@providerfacts\.example\.com$/),
    });
    expect(openApiDocument.info.license).toEqual({ name: 'Proprietary', url: expect.stringMatching(/^https:/) });
  });

  it('names the component schemas after the spec shapes', () => {
    const names = Object.keys(openApiDocument.components.schemas);
    for (const n of [
      'ProviderListResponse',
      'IdentityListResponse',
      'ProviderDetailResponse',
      'SampleResponse',
      'CoverageStats',
      'Provider',
      'IdentityProvider',
      'SourcedSignal',
      'LockedField',
      'OigField',
      'ProviderPrice',
      'Error',
    ]) {
      expect(names).toContain(n);
    }
  });

  it('is committed in step with openapi.ts (openapi.json and the generated types)', () => {
    // openapi-typescript is ESM-only with ESM dependencies, so the check runs in its own process.
    const run = spawnSync(path.join('node_modules', '.bin', 'tsx'), ['data-contracts/generate.ts', '--check'], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(readFileSync('data-contracts/openapi.json', 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(openApiDocument)),
    );
  });
});
