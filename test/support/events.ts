import type { APIGatewayProxyEvent } from 'aws-lambda';

/** What a test request differs in. */
export interface TestRequest {
  /** The raw query string, as a client would write it (`type=1&lang=en`). */
  readonly query?: string;
  readonly headers?: Record<string, string>;
  /** The authorizer's context; absent means no authorizer ran. */
  readonly authorizer?: Record<string, string> | null;
  readonly requestId?: string;
  readonly domainName?: string;
  readonly path?: string;
}

/** A raw query string decoded into the multi-value map API Gateway builds: every value of every name. */
export function multiValueQuery(query: string): Record<string, string[]> {
  const multi = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(query))
    multi.set(name, [...(multi.get(name) ?? []), value]);
  // As Lambda hands it over: plain JSON, where `__proto__` or `toString` is just another own property.
  return JSON.parse(JSON.stringify(Object.fromEntries(multi)));
}

/**
 * An API Gateway REST (v1) proxy event for `GET /vendor/vacancies`, with the query decoded into single and
 * multi-value maps the way API Gateway does it (a repeated name keeps every value; the single map the last).
 */
export function listingEvent(request: TestRequest = {}): APIGatewayProxyEvent {
  const multi = multiValueQuery(request.query ?? '');
  const single = Object.fromEntries(
    Object.entries(multi).map(([name, values]) => [name, values.at(-1) ?? '']),
  );
  const headers = { Host: 'api.example.com', 'X-Forwarded-Proto': 'https', ...request.headers };
  const hasQuery = Object.keys(multi).length > 0;
  return {
    resource: '/vendor/vacancies',
    path: '/vendor/vacancies',
    httpMethod: 'GET',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: hasQuery ? single : null,
    multiValueQueryStringParameters: hasQuery ? multi : null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      authorizer:
        request.authorizer === undefined ? { vendorId: 'acme', company: 'Acme LLC' } : request.authorizer,
      domainName: request.domainName ?? 'api.example.com',
      httpMethod: 'GET',
      identity: {} as APIGatewayProxyEvent['requestContext']['identity'],
      path: request.path ?? '/prod/vendor/vacancies',
      protocol: 'HTTP/1.1',
      requestId: request.requestId ?? 'req-1',
      requestTimeEpoch: 0,
      resourceId: 'res',
      resourcePath: '/vendor/vacancies',
      stage: 'prod',
    },
  };
}
