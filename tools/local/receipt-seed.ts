/**
 * The local server's receipt secret: `PF_RECEIPT_SEED` when set, else a random one generated on the first start and
 * kept in `<PF_LOCAL_DIR>/receipt-seed` (gitignored with the rest of `.local`), so that receipts issued before a
 * restart still verify against the public key served after it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const RECEIPT_SEED_FILE = 'receipt-seed';

/** The kept secret of `localDir`, created when there is none (or it is empty). */
export async function ensureReceiptSeed(localDir: string): Promise<string> {
  const file = path.join(localDir, RECEIPT_SEED_FILE);
  const kept = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return '';
      throw err;
    },
  );
  if (kept !== '') return kept;
  const seed = randomBytes(32).toString('base64url');
  await mkdir(localDir, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${seed}\n`, { mode: 0o600 });
  await rename(temp, file);
  return seed;
}
