// The part of @aws-sdk/client-secrets-manager that lambdas/signing/secrets-manager.ts uses, declared until the
// package is installed (`npm install @aws-sdk/client-secrets-manager`): once it is, the package's own types are
// resolved first and this file can be deleted.
declare module '@aws-sdk/client-secrets-manager' {
  interface SecretsManagerClientConfig {
    region?: string;
    endpoint?: string;
    credentials?: { accessKeyId: string; secretAccessKey: string };
    maxAttempts?: number;
  }
  export class GetSecretValueCommand {
    constructor(input: { SecretId: string; VersionId?: string; VersionStage?: string });
  }
  export class SecretsManagerClient {
    constructor(config: SecretsManagerClientConfig);
    send(command: GetSecretValueCommand): Promise<{ SecretString?: string; ARN?: string; Name?: string }>;
    destroy(): void;
  }
}
