/**
 * The OpenAPI document lints clean with Redocly CLI's `recommended` ruleset (redocly.yaml), as `npm test` runs it
 * (`npm run lint:openapi`, between Biome and dependency-cruiser): 0 errors, 0 warnings, and nothing sent anywhere
 * (no telemetry, no update check).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('the OpenAPI lint', () => {
  it('runs in npm test, after the code lint and before the dependency rules, with telemetry and update checks off', () => {
    expect(scripts.test).toContain('npm run lint && npm run lint:openapi && npm run lint:links && npm run deps');
    expect(scripts['lint:openapi']).toMatch(/^REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_NOTIFICATIONS=true redocly lint /);
    expect(scripts['lint:openapi']).toContain('data-contracts/openapi.json');
    const config = readFileSync('redocly.yaml', 'utf8');
    expect(config).toMatch(/^extends:\n {2}- recommended$/m);
    expect(config).toMatch(/^telemetry: off$/m);
    // Every rule of the ruleset applies: none is turned off.
    expect(config).not.toMatch(/^rules:/m);
  });

  it('reports no error and no warning on the published document', () => {
    const run = spawnSync(
      path.join('node_modules', '.bin', 'redocly'),
      ['lint', '--format=stylish', 'data-contracts/openapi.json'],
      {
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
      },
    );
    const output = `${run.stdout}${run.stderr}`;
    expect({ status: run.status, problems: output.match(/^\s+\d+:\d+\s+(error|warning)\s+.*$/gm) }).toEqual({
      status: 0,
      problems: null,
    });
    expect(output).toContain('Your API description is valid');
  });
});
