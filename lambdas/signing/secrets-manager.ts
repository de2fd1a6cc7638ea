/**
 * Reads one secret string from AWS Secrets Manager (`GetSecretValue`). The receipts' key is read once per instance,
 * on its first use, so the SDK's module is loaded then too (a dynamic import): an instance that never signs a
 * receipt, and every cold start, pays nothing for it. The client lives for that one read and is destroyed after it.
 */

/** Where the secret is. */
export interface SecretLocation {
  /** The secret's ARN (or name). */
  secretId: string;
  /** A custom endpoint (a loopback server in tests): static dummy credentials are used with it. */
  endpoint?: string;
  region?: string;
}

/** The secret's string. Throws when the secret has no string (a binary secret) or cannot be read. */
export async function readSecretString(location: SecretLocation): Promise<string> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const client = new SecretsManagerClient({
    ...(location.region ? { region: location.region } : {}),
    ...(location.endpoint
      ? {
          endpoint: location.endpoint,
          region: location.region ?? 'us-east-1',
          // A loopback server accepts any signature; static credentials keep the SDK from searching the machine.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    maxAttempts: 3,
  });
  try {
    const answer = await client.send(new GetSecretValueCommand({ SecretId: location.secretId }));
    if (typeof answer.SecretString !== 'string' || answer.SecretString === '') {
      throw new Error('the secret holds no string');
    }
    return answer.SecretString;
  } finally {
    client.destroy();
  }
}
