/**
 * The receipts' Ed25519 key (node:crypto, no library): derived from a secret string, so that one secret, kept by
 * the deployment (a Secrets Manager secret) or by the local server (its data folder), always gives the same key.
 * The seed is the SHA-256 of the secret's UTF-8 bytes, and the private key is that 32-byte seed inside the fixed
 * PKCS #8 wrapping of an Ed25519 key (RFC 8410), which is how node:crypto imports a raw seed.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { RECEIPT_ALGORITHM } from '../../data-contracts/receipts';
import type { ReceiptPublicKey } from '../../data-contracts/types';
import type { ReceiptKey } from '../core/ports';

/** The PKCS #8 DER of an Ed25519 private key, up to its 32-byte seed (RFC 8410 section 7). */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** Hex digits of the key id: the first 64 bits of the SHA-256 of the raw public key. */
const KEY_ID_DIGITS = 16;

/**
 * The id of a public key: the first 16 hex digits of the SHA-256 of its 32 raw bytes.
 * @example receiptKeyId(Buffer.alloc(32)) === '66687aadf862bd77'
 */
export function receiptKeyId(rawPublicKey: Uint8Array): string {
  return createHash('sha256').update(rawPublicKey).digest('hex').slice(0, KEY_ID_DIGITS);
}

/** The public key in the three forms the public-key route serves. */
export function describePublicKey(publicKey: KeyObject): ReceiptPublicKey {
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new Error('not an Ed25519 key');
  const raw = Buffer.from(jwk.x, 'base64url');
  return {
    algorithm: RECEIPT_ALGORITHM,
    key_id: receiptKeyId(raw),
    public_key: raw.toString('base64'),
    public_key_pem: String(publicKey.export({ format: 'pem', type: 'spki' })),
    jwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x },
  };
}

/**
 * The key a secret string gives. An empty secret is refused: it would give a key anyone can derive.
 * @example receiptKeyFromSecret('s3cret').sign(Buffer.from('hello')) // base64 of 64 bytes
 */
export function receiptKeyFromSecret(secret: string): ReceiptKey {
  if (secret.length === 0) throw new Error('the receipt secret is empty');
  const seed = createHash('sha256').update(secret, 'utf8').digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = describePublicKey(createPublicKey(privateKey));
  return {
    keyId: publicKey.key_id,
    publicKey,
    // Ed25519 hashes the message itself: no digest is named (https://nodejs.org/api/crypto.html#cryptosignalgorithm-data-key-callback).
    sign: (message) => sign(null, message, privateKey).toString('base64'),
  };
}

/**
 * Checks a receipt signature with a public key as the public-key route serves it (`public_key`, base64 of the 32 raw
 * bytes): what an auditor does. False for a signature that is not base64 of 64 bytes.
 */
export function verifyReceiptSignature(publicKeyBase64: string, message: Uint8Array, signatureBase64: string): boolean {
  const signature = Buffer.from(signatureBase64, 'base64');
  if (signature.length !== 64 || signature.toString('base64') !== signatureBase64) return false;
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyBase64, 'base64').toString('base64url') },
    format: 'jwk',
  });
  return verify(null, message, key, signature);
}
