/**
 * Signed receipts through the real HTTP app (node adapter, dynalite metering) over the demo snapshot the real ETL
 * builds: on each of the three batch screens, in JSON and CSV, every receipt verified with the key fetched from the
 * public-key route (and refused once a byte is changed); the refusals; never a 304 nor an ETag; and metering
 * exactly as the same call without a receipt. Every JSON answer is validated against the OpenAPI document.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canonicalJson } from '../../../../data-contracts/jcs';
import { RECEIPT_CSV_COLUMNS } from '../../../../data-contracts/receipts';
import type { ReceiptPublicKey, ReceiptResponse } from '../../../../data-contracts/types';
import { entityTag } from '../../../../lambdas/http/data-version';
import { verifyReceiptSignature } from '../../../../lambdas/signing/ed25519-key';
import { type ApiTestEnv, bearer, demoInputs, startApiTestEnv } from '../../../helpers/api-test-env';
import { parseCsvTable } from '../../../helpers/csv-body';
import { OPENAPI_DOC_ID, openapiAjv, openapiValidator } from '../../../helpers/openapi-ajv';

const validateReceipt = openapiValidator(`${OPENAPI_DOC_ID}#/components/schemas/ReceiptResponse`);
const validatePublicKey = openapiValidator(`${OPENAPI_DOC_ID}#/components/schemas/ReceiptPublicKey`);
const validateError = openapiValidator(`${OPENAPI_DOC_ID}#/components/schemas/Error`);

const ACTIVE = '1003633876';
const DEACTIVATED = '1114636115';
const ABSENT = '1234567893';
/** The NPI of a real LEIE row, given to a real sample record (as test/integration/lambdas/http/npi-lookup.test.ts). */
const EXCLUDED = '1255407482';
const BATCH = [ACTIVE, DEACTIVATED, ABSENT, '12345', EXCLUDED, ACTIVE];

const SOURCE = path.resolve(__dirname, '../../../fixtures/source-data');

let env: ApiTestEnv;
let work: string;
let publicKey: ReceiptPublicKey;
let snapshotId: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'pf-receipts-'));
  // One more NPPES file, listed last: a real sample record under the NPI of a real LEIE row, for an OIG match.
  const [header, ...lines] = (await readFile(path.join(SOURCE, 'nppes_sample.csv'), 'utf8')).split('\n');
  const active = lines.find((l) => l.startsWith(`${ACTIVE},`)) as string;
  const extra = path.join(work, 'nppes_leie_npi.csv');
  await writeFile(extra, `${header}\n${EXCLUDED}${active.slice(10)}\n`);
  const inputs = demoInputs();
  env = await startApiTestEnv({ storage: 'folder', inputs: { ...inputs, nppes: [...inputs.nppes, extra] } });
  const res = await env.get('/api/v1/receipts/public-key');
  expect(res.status).toBe(200);
  publicKey = (await res.json()) as ReceiptPublicKey;
  const probe = await env.get(`/api/v1/npi/${ACTIVE}`, bearer(env.keys.enterprise));
  snapshotId = probe.headers.get('x-snapshot-id') ?? '';
}, 240_000);

afterAll(async () => {
  await env?.close();
  await rm(work, { recursive: true, force: true });
});

/** A keyed GET with the developer key (metered: its answers say how many calls it has used). */
const get = (url: string, key = env.keys.developer, headers: Record<string, string> = {}) =>
  env.get(`/api/v1${url}`, { ...bearer(key), ...headers });

/** A JSON receipt: 200, never stored, no ETag, valid against the document and verified with the published key. */
async function receiptOf(url: string, key = env.keys.developer, headers: Record<string, string> = {}) {
  const res = await get(url, key, headers);
  const text = await res.text();
  expect({ url, status: res.status }).toEqual({ url, status: 200 });
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('etag')).toBeNull();
  const body = JSON.parse(text) as ReceiptResponse;
  if (!validateReceipt(body)) throw new Error(`${url}: ${openapiAjv.errorsText(validateReceipt.errors)}`);
  expect(body.signature).toMatchObject({ algorithm: 'Ed25519', key_id: publicKey.key_id });
  const signed = Buffer.from(canonicalJson(body.receipt), 'utf8');
  expect(verifyReceiptSignature(publicKey.public_key, signed, body.signature.value)).toBe(true);
  return { res, body };
}

const usedOf = (res: Response) => Number(res.headers.get('x-ratelimit-used'));

describe('the public key', () => {
  it('is public, cacheable, valid against the document, and names itself by its SHA-256', async () => {
    const res = await env.get('/api/v1/receipts/public-key');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const body = (await res.json()) as ReceiptPublicKey;
    expect(validatePublicKey(body)).toBe(true);
    expect(body).toEqual(publicKey);
  });
});

describe('GET /npi?numbers= with receipt=true', () => {
  it('answers every NPI asked, in order, with its outcome, the snapshot and the key id, signed', async () => {
    const { res, body } = await receiptOf(`/npi?numbers=${BATCH.join(',')}&receipt=true`);
    const { receipt } = body;
    expect(receipt.answers.map((a) => [a.npi, a.status, a.outcome])).toEqual([
      [ACTIVE, 'active', 'none'],
      [DEACTIVATED, 'deactivated', 'none'],
      [ABSENT, 'not_found', 'not_screened'],
      ['12345', 'invalid', 'not_screened'],
      [EXCLUDED, 'active', 'match'],
      [ACTIVE, 'active', 'none'],
    ]);
    expect(receipt.answers[4]?.oig).toMatchObject({ excluded: true, source: 'oig_leie' });
    expect(receipt.answers[2]?.oig).toBeNull();
    expect(receipt.snapshot.id).toBe(snapshotId);
    expect(res.headers.get('x-snapshot-id')).toBe(snapshotId);
    expect(receipt.api_key_id).toMatch(/^key_[0-9a-f]{16}$/);
    expect(JSON.stringify(body)).not.toContain(env.keys.developer);
    expect(receipt).toMatchObject({ version: 1, plan: 'developer', leie_files: expect.any(Array) });
    expect(receipt.request).toEqual({ path: '/api/v1/npi', query: { numbers: BATCH.join(',') } });
  });

  it('echoes the query without the key or the receipt, a repeated parameter as a list', async () => {
    const { body } = await receiptOf(
      `/npi?numbers=${ACTIVE}&receipt=true&key=${env.keys.developer}&format=json&format=json`,
    );
    expect(body.receipt.request.query).toEqual({ numbers: ACTIVE, format: ['json', 'json'] });
  });

  it('is refused once one byte of the receipt is changed', async () => {
    const { body } = await receiptOf(`/npi?numbers=${EXCLUDED}&receipt=true`);
    const canonical = Buffer.from(canonicalJson(body.receipt), 'utf8');
    for (const at of [0, 10, Math.floor(canonical.length / 2), canonical.length - 2]) {
      const changed = Buffer.from(canonical);
      changed[at] = (changed[at] as number) ^ 1;
      expect(verifyReceiptSignature(publicKey.public_key, changed, body.signature.value)).toBe(false);
    }
  });

  it('answers signed CSV lines, each verified alone and refused after one byte is changed', async () => {
    const res = await get(`/npi?numbers=${BATCH.join(',')}&receipt=true&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="receipt-[0-9a-f-]{36}\.csv"$/);
    expect(res.headers.get('etag')).toBeNull();
    const text = await res.text();
    const table = parseCsvTable(text);
    expect(table.header).toEqual([...RECEIPT_CSV_COLUMNS]);
    expect(table.rows.map((r) => r[RECEIPT_CSV_COLUMNS.indexOf('npi')])).toEqual(BATCH);
    const lines = text.split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(BATCH.length);
    for (const line of lines) {
      const cut = line.lastIndexOf(',');
      const signed = Buffer.from(line.slice(0, cut), 'utf8');
      expect(verifyReceiptSignature(publicKey.public_key, signed, line.slice(cut + 1))).toBe(true);
      signed[cut >> 1] = (signed[cut >> 1] as number) ^ 4;
      expect(verifyReceiptSignature(publicKey.public_key, signed, line.slice(cut + 1))).toBe(false);
    }
  });

  it('counts exactly the calls of the same batch without a receipt', async () => {
    const numbers = BATCH.join(',');
    const before = usedOf(await get(`/npi?numbers=${ACTIVE}`));
    const plain = usedOf(await get(`/npi?numbers=${numbers}`));
    const json = usedOf((await receiptOf(`/npi?numbers=${numbers}&receipt=true`)).res);
    const csv = usedOf(await get(`/npi?numbers=${numbers}&receipt=true&format=csv`));
    expect([plain - before, json - plain, csv - json]).toEqual([BATCH.length, BATCH.length, BATCH.length]);
  });

  it('is never answered 304, whatever If-None-Match holds', async () => {
    const url = `/npi?numbers=${ACTIVE}&receipt=true`;
    // The tag this request would have without the receipt rule: what a replaying client might send.
    const tag = entityTag({
      version: { snapshotId, asOf: '' },
      path: '/api/v1/npi',
      query: { numbers: [ACTIVE], receipt: ['true'] },
      principal: { plan: 'developer', vertical: null },
    });
    const plainTag = (await get(`/npi?numbers=${ACTIVE}`)).headers.get('etag') ?? '';
    for (const ifNoneMatch of [tag, plainTag, '*', `${tag}, ${plainTag}`]) {
      const { res } = await receiptOf(url, env.keys.developer, { 'if-none-match': ifNoneMatch });
      expect(res.status).toBe(200);
    }
  });
});

describe('GET /providers?npi= with receipt=true', () => {
  it('answers the page\u2019s share of the roster in the order asked, charged as the page', async () => {
    const roster = [DEACTIVATED, EXCLUDED, ACTIVE, ABSENT];
    const before = usedOf(await get(`/npi?numbers=${ACTIVE}`));
    const { res, body } = await receiptOf(`/providers?npi=${roster.join(',')}&limit=2&offset=1&receipt=true`);
    expect(body.receipt.answers.map((a) => [a.npi, a.outcome])).toEqual([
      [EXCLUDED, 'match'],
      [ACTIVE, 'none'],
    ]);
    expect(body.receipt.page).toBeUndefined();
    const plain = await get(`/providers?npi=${roster.join(',')}&limit=2&offset=1`);
    expect(plain.status).toBe(200);
    expect([usedOf(res) - before, usedOf(plain) - usedOf(res)]).toEqual([2, 2]);
  });

  it('answers CSV receipt lines too', async () => {
    const res = await get(`/providers?npi=${ACTIVE},${EXCLUDED}&receipt=true&format=csv`);
    expect(res.status).toBe(200);
    const table = parseCsvTable(await res.text());
    expect(table.rows.map((r) => r[RECEIPT_CSV_COLUMNS.indexOf('outcome')])).toEqual(['none', 'match']);
  });
});

describe('GET /changes?npi= with receipt=true', () => {
  it('answers every NPI of the roster and the page, charged one call as the page is', async () => {
    const before = usedOf(await get(`/npi?numbers=${ACTIVE}`));
    const { res, body } = await receiptOf(`/changes?since=${snapshotId}&npi=${EXCLUDED},${ACTIVE}&receipt=true`);
    expect(body.receipt.answers.map((a) => a.npi)).toEqual([EXCLUDED, ACTIVE]);
    expect(body.receipt.page).toEqual({ cursor: '0', next_cursor: null });
    expect(usedOf(res) - before).toBe(1);
  });
});

describe('refusals', () => {
  it.each([
    [`/npi?numbers=${ACTIVE}&receipt=yes`, 'receipt must be true or false'],
    [`/npi?numbers=${ACTIVE}&format=csv`, 'format=csv on /npi'],
    [`/npi?receipt=true`, 'numbers is required'],
    [`/providers?npi=${ACTIVE}&state=TX&receipt=true`, 'state would narrow it'],
    [`/providers?vertical=glp1&receipt=true`, 'this call has none'],
    [`/changes?since=2026-01-01&receipt=true`, 'this call has none'],
    [`/npi/${ACTIVE}?receipt=true`, 'This call has no receipt'],
    [`/providers?vertical=glp1&receipt=false&limit=1`, null],
  ])('%s', async (url, message) => {
    const before = usedOf(await get(`/npi?numbers=${ACTIVE}`));
    const res = await get(url);
    if (message === null) {
      expect(res.status).toBe(200);
      return;
    }
    const body = (await res.json()) as { code: string; error: string; hint?: string };
    expect({ url, status: res.status, code: body.code }).toEqual({ url, status: 400, code: 'invalid_parameter' });
    expect(validateError(body)).toBe(true);
    expect(body.error).toContain(message);
    expect(body.hint).toBeTruthy();
    // Nothing was counted.
    expect(usedOf(await get(`/npi?numbers=${ACTIVE}`)) - before).toBe(1);
  });

  it('asks for a key first', async () => {
    const res = await env.get(`/api/v1/npi?numbers=${ACTIVE}&receipt=true`);
    expect(res.status).toBe(401);
  });
});

describe("the API guide's verification snippet", () => {
  /** The guide's `js` block that verifies receipts, as an auditor would copy it. */
  async function snippet(): Promise<string> {
    const guide = await readFile(path.resolve(__dirname, '../../../../docs/api-guide.md'), 'utf8');
    const block = /```js\n(\/\/ node verify-receipt\.js[\s\S]*?)```/.exec(guide)?.[1];
    if (block === undefined) throw new Error('docs/api-guide.md has no verify-receipt.js block');
    const file = path.join(work, 'verify-receipt.js');
    await writeFile(file, block);
    return file;
  }

  /** Runs the snippet with node on a receipt file and the public key as served. */
  async function verifyWithSnippet(name: string, body: string): Promise<string[]> {
    const { execFileSync } = await import('node:child_process');
    const receipt = path.join(work, name);
    const key = path.join(work, 'public-key.json');
    await writeFile(receipt, body);
    await writeFile(key, JSON.stringify(publicKey));
    const out = execFileSync(process.execPath, [await snippet(), receipt, key], { encoding: 'utf8' });
    return out.trim().split('\n');
  }

  it('says valid for a JSON receipt and INVALID once one byte of it is changed', async () => {
    const text = await (await get(`/npi?numbers=${ACTIVE},${EXCLUDED},${ABSENT}&receipt=true`)).text();
    expect(await verifyWithSnippet('receipt.json', text)).toEqual(['valid']);
    const changed = text.replace(`"npi":"${ABSENT}"`, `"npi":"${ABSENT.slice(0, 9)}4"`);
    expect(changed).not.toBe(text);
    expect(await verifyWithSnippet('receipt.json', changed)).toEqual(['INVALID']);
  });

  it('checks every CSV line alone, and refuses the one line changed', async () => {
    const text = await (await get(`/npi?numbers=${ACTIVE},${EXCLUDED}&receipt=true&format=csv`)).text();
    const lines = await verifyWithSnippet('receipt.csv', text);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.every((l) => l.startsWith('valid '))).toBe(true);
    const changed = text.replace(`,${EXCLUDED},`, `,${EXCLUDED.slice(0, 9)}0,`);
    expect(changed).not.toBe(text);
    const verdicts = (await verifyWithSnippet('receipt.csv', changed)).map((l) => l.split(' ')[0]);
    expect(verdicts.filter((v) => v === 'INVALID')).toHaveLength(1);
  });
});
