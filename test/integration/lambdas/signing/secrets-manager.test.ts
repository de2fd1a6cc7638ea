/**
 * The Secrets Manager adapter (lambdas/signing/secrets-manager.ts) through the real SDK client, against a loopback
 * server that speaks `GetSecretValue`'s JSON protocol (awsJson1_1: a POST with `X-Amz-Target`); no SDK mock.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { receiptKeyFromSecret } from '../../../../lambdas/signing/ed25519-key';
import { createReceiptKeys } from '../../../../lambdas/signing/receipt-keys';
import { readSecretString } from '../../../../lambdas/signing/secrets-manager';
import { silentLogger } from '../../../../platform/logger';

const ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:pf-receipts-AbCdEf';
const SECRET = 'q7XbT2mVn9Lk4Rz8Wc1Hs6Jd3Fg5Py0Ae2Ui4Oo7Ss9Dd1Ff3Gg5Hh7Jj9Kk1Ll3';

interface Seen {
  target: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

let server: Server;
let endpoint: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const text = await bodyOf(req);
    const body = JSON.parse(text) as { SecretId?: string };
    seen.push({ target: req.headers['x-amz-target'] as string, contentType: req.headers['content-type'], body });
    res.setHeader('content-type', 'application/x-amz-json-1.1');
    if (body.SecretId !== ARN) {
      res.statusCode = 400;
      res.setHeader('x-amzn-errortype', 'ResourceNotFoundException');
      res.end(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'Secrets Manager can\u2019t find it.' }));
      return;
    }
    res.end(JSON.stringify({ ARN, Name: 'pf-receipts', VersionId: 'v1', SecretString: SECRET, CreatedDate: 1.7e9 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('readSecretString', () => {
  it('sends GetSecretValue for the secret and returns its string', async () => {
    seen.length = 0;
    expect(await readSecretString({ secretId: ARN, endpoint })).toBe(SECRET);
    expect(seen).toEqual([
      {
        target: 'secretsmanager.GetSecretValue',
        contentType: 'application/x-amz-json-1.1',
        body: { SecretId: ARN },
      },
    ]);
  });

  it('fails for a secret the service does not have', async () => {
    await expect(readSecretString({ secretId: `${ARN}-other`, endpoint })).rejects.toThrow(/find/);
  });

  it('gives the receipts the key of the secret, read once however many receipts are signed', async () => {
    seen.length = 0;
    const keys = createReceiptKeys({ kind: 'secret', secretId: ARN, endpoint }, silentLogger);
    const [a, b] = await Promise.all([keys.current(), keys.current()]);
    expect((await keys.current()).keyId).toBe(receiptKeyFromSecret(SECRET).keyId);
    expect(a).toBe(b);
    expect(seen).toHaveLength(1);
  });
});
