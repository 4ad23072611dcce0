import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayTokenAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { BEARER_HEADER_PATTERN } from '../../lambda/auth/bearer';
import {
  AUTHORIZER_UNAUTHORIZED_MESSAGE,
  GATEWAY_RESPONSES,
  type GatewayResponseDefinition,
  METHOD_NOT_ALLOWED,
  renderGatewayResponse,
} from '../../lambda/http/gateway-responses';
import { LISTING_PATH } from '../../lambda/vacancies/pagination';
import { lambdaContext } from './lambda-context';

/** The two Lambda handlers behind the API, exactly as deployed. */
export interface GatewayHandlers {
  readonly authorizer: (
    event: APIGatewayTokenAuthorizerEvent,
    context: Context,
  ) => Promise<APIGatewayAuthorizerResult>;
  readonly listing: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
}

const STAGE = 'local';
const METHOD_ARN = `arn:aws:execute-api:local:000000000000:local/${STAGE}/GET${LISTING_PATH}`;
const BEARER_HEADER = new RegExp(BEARER_HEADER_PATTERN);

/** Whether an IAM policy resource pattern (`*` wildcards) covers an ARN. */
function resourceMatches(pattern: string, arn: string): boolean {
  const expression = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${expression.join('.*')}$`).test(arn);
}

/** What API Gateway makes of an authorizer's policy for one method: an explicit Deny wins, then an Allow. */
function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  let allowed = false;
  for (const statement of result.policyDocument.Statement) {
    const resources = 'Resource' in statement ? [statement.Resource].flat() : [];
    if (!resources.some((resource) => resourceMatches(String(resource), methodArn))) continue;
    if (statement.Effect === 'Deny') return false;
    if (statement.Effect === 'Allow') allowed = true;
  }
  return allowed;
}

/** Header maps as API Gateway builds them: names as the client wrote them, the last value in the single map. */
function headerMaps(request: IncomingMessage) {
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i] ?? '';
    const existing =
      Object.keys(multiValueHeaders).find((key) => key.toLowerCase() === name.toLowerCase()) ?? name;
    multiValueHeaders[existing] = [...(multiValueHeaders[existing] ?? []), request.rawHeaders[i + 1] ?? ''];
  }
  multiValueHeaders['X-Forwarded-Proto'] = ['http'];
  const headers = Object.fromEntries(
    Object.entries(multiValueHeaders).map(([name, values]) => [name, values.at(-1) ?? '']),
  );
  return { headers, multiValueHeaders };
}

function send(response: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
    headers[name] = values.map(String);
  response.writeHead(result.statusCode, headers);
  response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

/**
 * An HTTP request handler that does what API Gateway does for this API, around the real Lambda handlers:
 * routing (404, 405), the identity source and `validationRegex` check (401 without calling the authorizer),
 * the TOKEN authorizer and its policy (401, 403, 500), the REST proxy event (v1) with the authorizer's
 * context, and the gateway responses from the shared definitions. No authorizer cache: a revoked key is
 * refused at once.
 */
export function createLocalGateway(handlers: GatewayHandlers) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    const gatewayResponse = (definition: GatewayResponseDefinition, fallbackStatus?: number) =>
      send(response, renderGatewayResponse(definition, requestId, fallbackStatus));

    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== LISTING_PATH) return gatewayResponse(GATEWAY_RESPONSES.MISSING_AUTHENTICATION_TOKEN);
    if (request.method !== 'GET') return gatewayResponse(METHOD_NOT_ALLOWED);

    const { headers, multiValueHeaders } = headerMaps(request);
    const authorization = request.headers.authorization;
    if (!authorization || !BEARER_HEADER.test(authorization))
      return gatewayResponse(GATEWAY_RESPONSES.UNAUTHORIZED);

    let authorizerResult: APIGatewayAuthorizerResult;
    try {
      authorizerResult = await handlers.authorizer(
        { type: 'TOKEN', authorizationToken: authorization, methodArn: METHOD_ARN },
        lambdaContext('authorizer'),
      );
    } catch (error) {
      const unauthorized = error instanceof Error && error.message === AUTHORIZER_UNAUTHORIZED_MESSAGE;
      return gatewayResponse(
        unauthorized ? GATEWAY_RESPONSES.UNAUTHORIZED : GATEWAY_RESPONSES.AUTHORIZER_FAILURE,
      );
    }
    if (!policyAllows(authorizerResult, METHOD_ARN)) return gatewayResponse(GATEWAY_RESPONSES.ACCESS_DENIED);

    const multiValueQueryStringParameters: Record<string, string[]> = {};
    for (const [name, value] of url.searchParams) {
      multiValueQueryStringParameters[name] = [...(multiValueQueryStringParameters[name] ?? []), value];
    }
    const hasQuery = url.searchParams.size > 0;
    const event: APIGatewayProxyEvent = {
      resource: LISTING_PATH,
      path: url.pathname,
      httpMethod: 'GET',
      headers,
      multiValueHeaders,
      queryStringParameters: hasQuery ? Object.fromEntries(url.searchParams) : null,
      multiValueQueryStringParameters: hasQuery ? multiValueQueryStringParameters : null,
      pathParameters: null,
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        authorizer: { ...authorizerResult.context, principalId: authorizerResult.principalId },
        domainName: request.headers.host ?? 'localhost',
        httpMethod: 'GET',
        identity: {
          sourceIp: request.socket.remoteAddress ?? '',
        } as APIGatewayProxyEvent['requestContext']['identity'],
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        requestId,
        requestTimeEpoch: Date.now(),
        resourceId: 'local',
        resourcePath: LISTING_PATH,
        stage: STAGE,
      },
    };
    try {
      send(response, await handlers.listing(event, lambdaContext('listing')));
    } catch {
      // A failed invocation: API Gateway answers 502 through DEFAULT_5XX.
      gatewayResponse(GATEWAY_RESPONSES.DEFAULT_5XX, 502);
    }
  };
}
