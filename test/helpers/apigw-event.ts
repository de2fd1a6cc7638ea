/** A minimal API Gateway HTTP API (payload 2.0) GET event for adapter tests (the recorded ones: test/fixtures/apigw). */
export function apiGatewayEvent(rawPath: string, rawQueryString = '', headers: Record<string, string> = {}) {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers: { host: 'api.example.com', ...headers },
    isBase64Encoded: false,
    body: null,
    requestContext: {
      accountId: '1',
      apiId: 'a',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method: 'GET', path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: 'r',
      routeKey: '$default',
      stage: '$default',
      time: '21/Nov/2026:00:00:00 +0000',
      timeEpoch: 1795219200000,
    },
  };
}
