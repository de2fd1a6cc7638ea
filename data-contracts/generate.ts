/**
 * Writes the derived contract files from `openapi.ts`:
 * - `openapi.json`: the published document (served at /api/v1/openapi.json and copied into every snapshot);
 * - `generated/api-types.ts`: TypeScript types generated from it by openapi-typescript.
 *
 * Run with `npm run contracts:generate`; `--check` (run by a contract test) fails when the committed files are
 * out of step with `openapi.ts`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from './openapi';

export const CONTRACT_FILES = {
  openapiJson: path.join(__dirname, 'openapi.json'),
  apiTypes: path.join(__dirname, 'generated', 'api-types.ts'),
} as const;

/** Renders both derived files as strings, exactly as they are committed. */
export async function renderContractFiles(): Promise<{ openapiJson: string; apiTypes: string }> {
  const openapiJson = `${JSON.stringify(openApiDocument, null, 2)}\n`;
  const ast = await openapiTS(JSON.parse(openapiJson), { exportType: true, immutable: false });
  const header = '/* Generated from data-contracts/openapi.ts by `npm run contracts:generate`. Do not edit. */\n';
  return { openapiJson, apiTypes: header + astToString(ast) };
}

/** `--check` compares instead of writing, and exits 1 naming the stale file. */
async function main(argv: string[]): Promise<void> {
  const files = await renderContractFiles();
  const targets = [
    [CONTRACT_FILES.openapiJson, files.openapiJson],
    [CONTRACT_FILES.apiTypes, files.apiTypes],
  ] as const;
  for (const [file, text] of targets) {
    if (argv.includes('--check')) {
      const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
      if (current !== text) {
        process.stderr.write(`${file} is out of step with data-contracts/openapi.ts: run npm run contracts:generate\n`);
        process.exitCode = 1;
      }
    } else {
      writeFileSync(file, text);
      process.stdout.write(`wrote ${file}\n`);
    }
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  });
}
