/**
 * The receipt presenter (lambdas/http/receipt-format.ts): the JSON body carries its receipt in canonical form and a
 * signature over it that the public key verifies; every CSV line carries a signature over its bytes before its last
 * comma; and one byte changed in the receipt or in a line makes the signature fail.
 */
import fc from 'fast-check';
import { canonicalJson } from '../../../../data-contracts/jcs';
import { RECEIPT_CSV_COLUMNS } from '../../../../data-contracts/receipts';
import type { Receipt, ReceiptResponse } from '../../../../data-contracts/types';
import { receiptCsvText, receiptJsonBytes } from '../../../../lambdas/http/receipt-format';
import { receiptKeyFromSecret, verifyReceiptSignature } from '../../../../lambdas/signing/ed25519-key';
import { parseCsvTable } from '../../../helpers/csv-body';

const key = receiptKeyFromSecret('unit receipts');
const publicKey = key.publicKey.public_key;

const CANDIDATE = {
  strength: 'strong' as const,
  evidence: {
    last_name: 'exact' as const,
    first_name: 'exact' as const,
    middle_name: null,
    business_name: null,
    state: 'practice' as const,
    city: 'both' as const,
    zip: null,
  },
  leie: {
    entity: 'individual' as const,
    last_name: "O'BRIEN",
    first_name: 'JANE',
    middle_name: 'Q',
    business_name: null,
    general: 'NURSE/NURSES AIDE',
    specialty: null,
    city: 'AUSTIN, WEST',
    state: 'TX',
    zip: '78701',
    npi: null,
    exclusion_type: '1128b4',
    exclusion_date: '2019-04-18',
  },
};

const RECEIPT: Receipt = {
  version: 1,
  receipt_id: '6f1c2a4e-8b3d-4f5a-9c7e-0d1b2a3c4e5f',
  issued_at: '2026-11-02T14:03:11.052Z',
  request: { path: '/api/v1/npi', query: { numbers: '1003633876,1245319599,12345', format: 'csv' } },
  api_key_id: 'key_3f1c9a0b7d2e4f65',
  plan: 'developer',
  snapshot: { id: '20261101T000000Z-ez401deg', as_of: '2026-11-01T00:00:00Z' },
  leie_files: [
    { file: 'UPDATED.csv', kind: 'list', release: '2026-10-01T00:00:00Z', sha256: 'a'.repeat(64), rows: 10 },
    { file: '2611EXCL.csv', kind: 'supplement', release: '2026-11-01T00:00:00Z', sha256: 'b'.repeat(64), rows: 2 },
  ],
  answers: [
    {
      npi: '1003633876',
      status: 'active',
      outcome: 'candidates',
      oig: { npi_match: 'none', note: 'No match by NPI.' },
      candidates: [CANDIDATE, { ...CANDIDATE, strength: 'weak' }],
    },
    {
      npi: '1245319599',
      status: 'active',
      outcome: 'match',
      oig: { excluded: true, type: '1128a1', date: '2019-04-18', source: 'oig_leie', checked_at: null },
      candidates: [],
    },
    { npi: '12345', status: 'invalid', outcome: 'not_screened', oig: null, candidates: [] },
  ],
};

/** Flips one byte of `text`'s UTF-8 bytes. */
function flipped(text: string, at: number, flip: number): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  bytes[at % bytes.length] = (bytes[at % bytes.length] as number) ^ flip;
  return bytes;
}

describe('receiptJsonBytes', () => {
  const body = JSON.parse(receiptJsonBytes(RECEIPT, key).toString('utf8')) as ReceiptResponse;

  it('carries the receipt as it is and a signature over its canonical JSON that the public key verifies', () => {
    expect(body.receipt).toEqual(RECEIPT);
    expect(body.signature).toEqual({ algorithm: 'Ed25519', key_id: key.keyId, value: expect.any(String) });
    const signed = Buffer.from(canonicalJson(body.receipt), 'utf8');
    expect(verifyReceiptSignature(publicKey, signed, body.signature.value)).toBe(true);
    // The wire text holds the canonical form itself.
    expect(receiptJsonBytes(RECEIPT, key).toString('utf8')).toContain(`{"receipt":${canonicalJson(RECEIPT)},`);
  });

  it('fails verification after any one byte of the canonical receipt is changed', () => {
    const canonical = canonicalJson(body.receipt);
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        expect(verifyReceiptSignature(publicKey, flipped(canonical, at, flip), body.signature.value)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('fails verification of a receipt whose answer was edited, once canonicalised again', () => {
    const edited = structuredClone(body.receipt);
    (edited.answers[1] as { outcome: string }).outcome = 'none';
    expect(verifyReceiptSignature(publicKey, Buffer.from(canonicalJson(edited)), body.signature.value)).toBe(false);
  });
});

describe('receiptCsvText', () => {
  const text = receiptCsvText(RECEIPT, key);
  const lines = text.split('\r\n').slice(1, -1);

  it('writes one line per (NPI, candidate), or one for an NPI without, with the columns of the contract', () => {
    const table = parseCsvTable(text);
    expect(table.header).toEqual([...RECEIPT_CSV_COLUMNS]);
    const rows = table.rows.map((cells) => Object.fromEntries(table.header.map((c, i) => [c, cells[i]])));
    expect(rows.map((r) => [r.row, r.rows, r.npi, r.outcome, r.candidate_strength])).toEqual([
      ['1', '4', '1003633876', 'candidates', 'strong'],
      ['2', '4', '1003633876', 'candidates', 'weak'],
      ['3', '4', '1245319599', 'match', ''],
      ['4', '4', '12345', 'not_screened', ''],
    ]);
    expect(rows[0]).toMatchObject({
      receipt_id: RECEIPT.receipt_id,
      snapshot_id: RECEIPT.snapshot.id,
      api_key_id: RECEIPT.api_key_id,
      leie_files: `UPDATED.csv@2026-10-01T00:00:00Z#${'a'.repeat(64)};2611EXCL.csv@2026-11-01T00:00:00Z#${'b'.repeat(64)}`,
      candidate_name: "O'BRIEN, JANE Q",
      candidate_city: 'AUSTIN, WEST',
      candidate_evidence: 'last_name=exact;first_name=exact;state=practice;city=both',
      candidate_exclusion_date: '2019-04-18',
      key_id: key.keyId,
    });
    expect(rows[2]).toMatchObject({ oig_type: '1128a1', oig_date: '2019-04-18', candidate_name: '' });
  });

  it('signs each line alone over its bytes before its last comma', () => {
    for (const line of lines) {
      const cut = line.lastIndexOf(',');
      expect(verifyReceiptSignature(publicKey, Buffer.from(line.slice(0, cut)), line.slice(cut + 1))).toBe(true);
    }
  });

  it('fails verification of a line after any one byte of it is changed', () => {
    fc.assert(
      fc.property(fc.nat({ max: lines.length - 1 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (i, at, flip) => {
        const line = lines[i] as string;
        const cut = line.lastIndexOf(',');
        const signed = line.slice(0, cut);
        expect(verifyReceiptSignature(publicKey, flipped(signed, at, flip), line.slice(cut + 1))).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
