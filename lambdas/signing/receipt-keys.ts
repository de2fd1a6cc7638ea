/**
 * Where the receipts' key comes from, and its loading: once per process, on the first receipt or public-key request
 * (never at cold start, so that the NPI lookup's cold path does not wait for Secrets Manager). A failed load is not
 * remembered: the next request tries again.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../platform/logger';
import type { ReceiptKey, ReceiptKeys } from '../core/ports';
import { receiptKeyFromSecret } from './ed25519-key';
import { readSecretString, type SecretLocation } from './secrets-manager';

/**
 * The secret the key derives from: a string given as it is (`PF_RECEIPT_SEED`, the local server's file), or a Secrets
 * Manager secret (`PF_RECEIPT_SECRET_ARN`, a deployment's).
 */
export type ReceiptKeySource = { kind: 'seed'; seed: string } | ({ kind: 'secret' } & SecretLocation);

/**
 * A source of a new random secret, for a process that is given none (tests, measuring tools): its receipts verify
 * only against its own public key, for its own life.
 */
export function ephemeralReceiptSource(): ReceiptKeySource {
  return { kind: 'seed', seed: randomBytes(32).toString('base64url') };
}

/** The key of `source`, loaded on first use. */
export function createReceiptKeys(source: ReceiptKeySource, logger: Logger): ReceiptKeys {
  const read = source.kind === 'seed' ? async () => source.seed : () => readSecretString(source);
  let loading: Promise<ReceiptKey> | null = null;
  return {
    current() {
      if (loading === null) {
        loading = read().then(receiptKeyFromSecret);
        loading.then(
          (key) => logger.info('receipt_key_loaded', { key_id: key.keyId, source: source.kind }),
          (err: unknown) => {
            loading = null;
            logger.error('receipt_key_unavailable', { source: source.kind, error: err });
          },
        );
      }
      return loading;
    },
  };
}
