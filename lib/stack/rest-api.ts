import {
  aws_apigateway as apigateway,
  Duration,
  type aws_logs as logs,
  RemovalPolicy,
  Validations,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { routeMethodNotAllowed } from '../../lambda/domain/service/gateway-answers';
import {
  AGENT_TOKEN_PARAMETER,
  MCP_AGENT_RESOURCE,
  MCP_PATH,
  ROUTE_PREFLIGHT,
  ROUTES,
} from '../../lambda/domain/service/routes';
import { BEARER_HEADER_PATTERN } from '../../lambda/functions/authorizer/bearer';
import { EXPOSED_HEADERS, type Preflight, preflightHeaders } from '../../lambda/platform/http/cors';
import { ERROR_HEADERS } from '../../lambda/platform/http/errors';
import {
  GATEWAY_RESPONSES,
  type GatewayResponseDefinition,
  type GatewayResponseType,
  gatewayResponseTemplate,
} from '../../lambda/platform/http/gateway-responses';
import type { ServiceSettings } from '../settings';
import type { ServiceFunctions } from './functions';

/**
 * The access log line, one JSON object per request. The monitoring's metric filters and Contributor Insights
 * rules read it by these field names (`accessLogField`); `vendorId` is `-` when no vendor was authorized.
 */
export const ACCESS_LOG_FORMAT = {
  requestId: apigateway.AccessLogField.contextRequestId(),
  requestTime: apigateway.AccessLogField.contextRequestTime(),
  ip: apigateway.AccessLogField.contextIdentitySourceIp(),
  userAgent: apigateway.AccessLogField.contextIdentityUserAgent(),
  method: apigateway.AccessLogField.contextHttpMethod(),
  path: apigateway.AccessLogField.contextPath(),
  status: apigateway.AccessLogField.contextStatus(),
  responseLength: apigateway.AccessLogField.contextResponseLength(),
  latency: apigateway.AccessLogField.contextResponseLatency(),
  integrationLatency: apigateway.AccessLogField.contextIntegrationLatency(),
  vendorId: apigateway.AccessLogField.contextAuthorizer('vendorId'),
  error: apigateway.AccessLogField.contextErrorResponseType(),
} as const;

/** A field of the access log line. */
export type AccessLogField = keyof typeof ACCESS_LOG_FORMAT;

/** What the REST API is built from. */
export interface ServiceApiProps {
  readonly settings: ServiceSettings;
  readonly functions: ServiceFunctions;
  readonly accessLogs: logs.ILogGroup;
}

const quoted = (value: string) => `'${value}'`;

/**
 * The request's `Origin`, as a gateway response maps it (`method.request.header.*` is a source gateway responses
 * take): absent from the request, absent from the answer.
 */
const REQUEST_ORIGIN = 'method.request.header.Origin';

/**
 * The CORS headers every answer the gateway makes itself carries (docs/api.md#from-a-web-page), in its mapping
 * syntax; `Access-Control-Allow-Origin`, the request's origin echoed so that a page can read why it was refused, is
 * added per kind of answer (`GATEWAY_ORIGIN`, `ECHO_ORIGIN`) — what `crossOriginHeaders` gives the functions' answers
 * and the local server's.
 */
const CORS_MAPPINGS: Readonly<Record<string, string>> = {
  'Access-Control-Expose-Headers': quoted(EXPOSED_HEADERS),
  Vary: quoted('Origin'),
};

/** Response headers of a gateway response or mock integration, in API Gateway's mapping syntax. */
function headerMappings(definition: GatewayResponseDefinition): Record<string, string> {
  const headers: Record<string, string> = { 'X-Request-Id': 'context.requestId', ...CORS_MAPPINGS };
  for (const [name, value] of Object.entries({ ...ERROR_HEADERS, ...definition.headers })) {
    headers[name] = quoted(value);
  }
  return headers;
}

/**
 * A mock integration's answer echoes the request's origin through its response template: an integration response
 * cannot map a method request header (only the integration's, the stage's, the context's, or a constant), so the
 * template overrides the header, as CDK's own CORS preflight does for a list of origins. Empty when there is none.
 */
const ECHO_ORIGIN = [
  '#set($origin = $input.params().header.get("Origin"))',
  '#if("$!origin" == "")#set($origin = $input.params().header.get("origin"))#end',
  '#if("$!origin" != "")#set($context.responseOverride.header.Access-Control-Allow-Origin = $origin)#end',
].join('\n');

/** A mock integration's answer: its status, body template and headers (mapped as `method.response.header.*`). */
function mockMethod(statusCode: string, headers: Record<string, string>, body = '') {
  const parameter = (name: string) => `method.response.header.${name}`;
  return {
    integration: new apigateway.MockIntegration({
      requestTemplates: { 'application/json': `{"statusCode": ${statusCode}}` },
      passthroughBehavior: apigateway.PassthroughBehavior.WHEN_NO_MATCH,
      integrationResponses: [
        {
          statusCode,
          responseTemplates: { 'application/json': `${ECHO_ORIGIN}\n${body}` },
          responseParameters: Object.fromEntries(
            Object.entries(headers).map(([name, value]) => [parameter(name), value]),
          ),
        },
      ],
    }),
    options: {
      authorizationType: apigateway.AuthorizationType.NONE,
      methodResponses: [
        {
          statusCode,
          responseParameters: Object.fromEntries(
            [...Object.keys(headers), 'Access-Control-Allow-Origin'].map((name) => [parameter(name), true]),
          ),
        },
      ],
    },
  };
}

const COGNITO_NOT_FOR_MACHINES = {
  id: 'AwsSolutions::AwsSolutions-COG4',
  reason:
    'Vendors are machine clients identified by API keys, checked by the Lambda TOKEN authorizer (docs/api.md#authentication); Cognito user pools are for people signing in.',
};

const COGNITO_NOT_FOR_PUBLIC_AGENTS = {
  id: 'AwsSolutions::AwsSolutions-COG4',
  reason:
    "A public agent endpoint is public by design (docs/api.md#agents-mcp): the path's token names it, checked by a Lambda REQUEST authorizer; there is no user to sign in.",
};

/**
 * The REST API: every method behind the key authorizer by default (`defaultMethodOptions`), every error of
 * API Gateway's in the contract's envelope (gateway responses), `GET /vendor/vacancies` and
 * `GET /vendor/vacancies/{id}` proxied to the listing function and `POST /mcp` to the MCP function, with an API key
 * required (its usage plan throttles it), any other method a 405 from a mock integration, JSON
 * access logs, stage throttling and tracing.
 *
 * The `RestApi` is this construct's `Default` child, so its logical id — and the ids of its stage and usage
 * plans — are those of the first version's stack: an update keeps the API's address and the vendors' plans.
 */
export class ServiceApi extends Construct {
  public readonly api: apigateway.RestApi;

  constructor(scope: Construct, id: string, { settings, functions, accessLogs }: ServiceApiProps) {
    super(scope, id);
    this.api = new apigateway.RestApi(this, 'Default', {
      restApiName: settings.stackName,
      // Clients send only their Bearer key: the authorizer names the vendor's usage key, and the usage plan of
      // that key (the vendor's rate tier) throttles it.
      apiKeySourceType: apigateway.ApiKeySourceType.AUTHORIZER,
      description: 'Vendor Vacancy API: a vendor lists its own active vacancies',
      endpointConfiguration: { types: [apigateway.EndpointType.REGIONAL] },
      // With a custom domain, the operator may make it the only way in.
      disableExecuteApiEndpoint: settings.disableExecuteApiEndpoint,
      // Execution logging needs the account's API Gateway CloudWatch role. It is account-wide and shared with
      // other APIs, so it outlives this stack.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: settings.stageName,
        throttlingRateLimit: settings.throttlingRateLimit,
        throttlingBurstLimit: settings.throttlingBurstLimit,
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        // Data trace would log whole requests, Authorization header included: never.
        dataTraceEnabled: false,
        tracingEnabled: settings.tracing,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigateway.AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FORMAT)),
      },
      // Every method is behind the key authorizer unless it explicitly says otherwise.
      defaultMethodOptions: {
        authorizer: new apigateway.TokenAuthorizer(this, 'KeyAuthorizer', {
          handler: functions.authorizer.function,
          identitySource: apigateway.IdentitySource.header('Authorization'),
          // Malformed headers are refused (401) by API Gateway itself, without invoking the function.
          validationRegex: BEARER_HEADER_PATTERN,
          resultsCacheTtl: Duration.seconds(settings.authorizerCacheSeconds),
        }),
      },
    });
    this.acknowledgeApiFindings();
    this.addGatewayResponses();

    // Both routes to the listing function, which tells them apart by the resource (docs/api.md#one-vacancy).
    const listing = new apigateway.LambdaIntegration(functions.listing.function, { allowTestInvoke: false });
    for (const path of ROUTES) {
      const resource = this.api.root.resourceForPath(path);
      const get = resource.addMethod('GET', listing, { apiKeyRequired: true });
      Validations.of(get).acknowledge(COGNITO_NOT_FOR_MACHINES);
      this.addPreflight(resource, ROUTE_PREFLIGHT[path]);
      this.addMethodNotAllowed(resource, routeMethodNotAllowed(path));
    }

    // The MCP server (docs/api.md#agents-mcp): its own function, behind the same authorizer, key and usage plans.
    const mcp = this.api.root.resourceForPath(MCP_PATH);
    const post = mcp.addMethod(
      'POST',
      new apigateway.LambdaIntegration(functions.mcp.function, { allowTestInvoke: false }),
      { apiKeyRequired: true },
    );
    Validations.of(post).acknowledge(COGNITO_NOT_FOR_MACHINES);
    this.addPreflight(mcp, ROUTE_PREFLIGHT[MCP_PATH]);
    this.addMethodNotAllowed(mcp, routeMethodNotAllowed(MCP_PATH));

    // The public agent endpoints (docs/api.md#agents-mcp): the MCP function again, with no key, behind a REQUEST
    // authorizer of its own on the path's token — the same function as the keys' — whose answer is cached per token
    // for the settings' authorizer cache time (so a removal takes that long), naming the endpoint's API key in the
    // `agent` usage plan.
    const agent = mcp.addResource(`{${AGENT_TOKEN_PARAMETER}}`);
    const tokenSource = `method.request.path.${AGENT_TOKEN_PARAMETER}`;
    const publicPost = agent.addMethod(
      'POST',
      new apigateway.LambdaIntegration(functions.mcp.function, { allowTestInvoke: false }),
      {
        apiKeyRequired: true,
        requestParameters: { [tokenSource]: true },
        authorizer: new apigateway.RequestAuthorizer(this, 'AgentAuthorizer', {
          handler: functions.authorizer.function,
          identitySources: [tokenSource],
          resultsCacheTtl: Duration.seconds(settings.authorizerCacheSeconds),
        }),
      },
    );
    Validations.of(publicPost).acknowledge(COGNITO_NOT_FOR_PUBLIC_AGENTS);
    this.addPreflight(agent, ROUTE_PREFLIGHT[MCP_AGENT_RESOURCE]);
    this.addMethodNotAllowed(agent, routeMethodNotAllowed(MCP_AGENT_RESOURCE));
  }

  /** API Gateway's own answers (401, 403, 404, 429, 5XX …) in the contract's envelope, with its headers. */
  private addGatewayResponses(): void {
    for (const [type, definition] of Object.entries(GATEWAY_RESPONSES) as [
      GatewayResponseType,
      GatewayResponseDefinition,
    ][]) {
      this.api.addGatewayResponse(`Response${type}`, {
        type: apigateway.ResponseType.of(type),
        ...(definition.statusCode && { statusCode: String(definition.statusCode) }),
        responseHeaders: { ...headerMappings(definition), 'Access-Control-Allow-Origin': REQUEST_ORIGIN },
        templates: { 'application/json': gatewayResponseTemplate(definition) },
      });
    }
  }

  /**
   * Any other method: 405 from a mock integration. It reaches no code and no data, so it needs no key, and
   * answers before authentication, as routing does.
   */
  private addMethodNotAllowed(resource: apigateway.IResource, answer: GatewayResponseDefinition): void {
    this.addMock(
      resource,
      'ANY',
      mockMethod('405', headerMappings(answer), gatewayResponseTemplate(answer)),
      "A mock integration that answers 405 to methods other than the route's: it reaches no function and no data.",
    );
  }

  /**
   * A page's preflight (docs/api.md#from-a-web-page): 204 from a mock integration, with no authorizer — a
   * preflight carries no key — for any origin; the GET decides whether the key may be used from it.
   */
  private addPreflight(resource: apigateway.IResource, preflight: Preflight): void {
    // The origin itself is echoed by the template (`ECHO_ORIGIN`); the rest is constant.
    const { 'Access-Control-Allow-Origin': _echoed, ...constant } = preflightHeaders('origin', preflight);
    const headers: Record<string, string> = {
      'X-Request-Id': 'context.requestId',
      ...Object.fromEntries(Object.entries(constant).map(([name, value]) => [name, quoted(value)])),
    };
    this.addMock(
      resource,
      'OPTIONS',
      mockMethod('204', headers),
      'A CORS preflight answered by a mock integration: it carries no key by the Fetch standard, and reaches no function and no data.',
    );
  }

  /** A method answered by a mock integration, without authorizer or key, and why cdk-nag's findings do not apply. */
  private addMock(
    resource: apigateway.IResource,
    httpMethod: string,
    { integration, options }: ReturnType<typeof mockMethod>,
    reason: string,
  ): void {
    const method = resource.addMethod(httpMethod, integration, options);
    Validations.of(method).acknowledge(COGNITO_NOT_FOR_MACHINES);
    Validations.of(method).acknowledge({ id: 'AwsSolutions::AwsSolutions-APIG4', reason });
  }

  /** cdk-nag findings on the REST API that are by design, each with its reason. */
  private acknowledgeApiFindings(): void {
    const api = Validations.of(this.api);
    api.acknowledge({
      id: 'AwsSolutions::AwsSolutions-APIG2',
      reason:
        'The handler validates every query parameter against the contract and answers 422 naming each invalid one; an API Gateway validator would answer 400 in another shape.',
    });
    api.acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        "API Gateway's account-level logging role uses the AWS-documented policy, which only writes logs.",
    });
  }
}
