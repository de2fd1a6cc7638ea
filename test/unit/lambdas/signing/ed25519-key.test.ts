/**
 * The receipts' key (lambdas/signing/ed25519-key.ts): one secret gives one key, its id is the SHA-256 of the raw
 * public key, its three published forms are the same key, and a signature verifies with any of them and with
 * nothing else; and the key source loads once, on first use, forgetting a failure.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import fc from 'fast-check';
import {
  describePublicKey,
  receiptKeyFromSecret,
  receiptKeyId,
  verifyReceiptSignature,
} from '../../../../lambdas/signing/ed25519-key';
import { createReceiptKeys } from '../../../../lambdas/signing/receipt-keys';
import { silentLogger } from '../../../../platform/logger';

describe('receiptKeyFromSecret', () => {
  it('derives the same key from the same secret, and another from another', () => {
    const a = receiptKeyFromSecret('a deployment secret');
    expect(receiptKeyFromSecret('a deployment secret').publicKey).toEqual(a.publicKey);
    expect(receiptKeyFromSecret('another secret').keyId).not.toBe(a.keyId);
    expect(() => receiptKeyFromSecret('')).toThrow('empty');
  });

  it('names the key by the first 16 hex digits of the SHA-256 of its 32 raw bytes', () => {
    const key = receiptKeyFromSecret('s');
    const raw = Buffer.from(key.publicKey.public_key, 'base64');
    expect(raw).toHaveLength(32);
    expect(key.keyId).toBe(createHash('sha256').update(raw).digest('hex').slice(0, 16));
    expect(key.publicKey.key_id).toBe(key.keyId);
    expect(receiptKeyId(raw)).toBe(key.keyId);
  });

  it('publishes one key in three forms: raw base64, PEM and JWK', () => {
    const { publicKey } = receiptKeyFromSecret('s');
    const fromPem = createPublicKey(publicKey.public_key_pem);
    const fromJwk = createPublicKey({ key: publicKey.jwk, format: 'jwk' });
    expect(describePublicKey(fromPem)).toEqual(publicKey);
    expect(describePublicKey(fromJwk)).toEqual(publicKey);
    expect(Buffer.from(publicKey.jwk.x, 'base64url').toString('base64')).toBe(publicKey.public_key);
    expect(publicKey).toMatchObject({ algorithm: 'Ed25519', jwk: { kty: 'OKP', crv: 'Ed25519' } });
  });

  it('signs so that the published key verifies, with node:crypto directly too', () => {
    const key = receiptKeyFromSecret('s');
    const message = Buffer.from('{"a":1}');
    const signature = key.sign(message);
    expect(Buffer.from(signature, 'base64')).toHaveLength(64);
    expect(verifyReceiptSignature(key.publicKey.public_key, message, signature)).toBe(true);
    const pem = createPublicKey(key.publicKey.public_key_pem);
    expect(verify(null, message, pem, Buffer.from(signature, 'base64'))).toBe(true);
    expect(verifyReceiptSignature(receiptKeyFromSecret('t').publicKey.public_key, message, signature)).toBe(false);
  });

  it('refuses a message with any one byte changed, and a signature with any one byte changed', () => {
    const key = receiptKeyFromSecret('s');
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 300 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (bytes, at, flip) => {
          const message = Buffer.from(bytes);
          const signature = key.sign(message);
          const changed = Buffer.from(message);
          changed[at % changed.length] = (changed[at % changed.length] as number) ^ flip;
          expect(verifyReceiptSignature(key.publicKey.public_key, changed, signature)).toBe(false);
          const raw = Buffer.from(signature, 'base64');
          raw[at % raw.length] = (raw[at % raw.length] as number) ^ flip;
          expect(verifyReceiptSignature(key.publicKey.public_key, message, raw.toString('base64'))).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a signature that is not base64 of 64 bytes', () => {
    const key = receiptKeyFromSecret('s');
    const message = Buffer.from('x');
    for (const bad of ['', 'AAAA', `${key.sign(message)}A`, key.sign(message).replace(/=+$/, '')]) {
      expect(verifyReceiptSignature(key.publicKey.public_key, message, bad)).toBe(false);
    }
  });
});

describe('createReceiptKeys', () => {
  it('loads the key once, on first use, and loads again after a failure', async () => {
    let reads = 0;
    const keys = createReceiptKeys({ kind: 'seed', seed: 'seed' }, silentLogger);
    const [a, b] = await Promise.all([keys.current(), keys.current()]);
    expect(a).toBe(b);
    expect(a.keyId).toBe(receiptKeyFromSecret('seed').keyId);
    // A secret that cannot be read (no such endpoint): the failure is not remembered.
    const failing = createReceiptKeys(
      { kind: 'secret', secretId: 'arn:aws:secretsmanager:us-east-1:0:secret:x', endpoint: 'http://127.0.0.1:9' },
      { ...silentLogger, error: () => void reads++ },
    );
    await expect(failing.current()).rejects.toThrow();
    await expect(failing.current()).rejects.toThrow();
    expect(reads).toBe(2);
  });
});
