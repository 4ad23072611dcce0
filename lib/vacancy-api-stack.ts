import {
  aws_cloudwatch_actions as actions,
  aws_apigateway as apigateway,
  CfnOutput,
  aws_cloudwatch as cloudwatch,
  Duration,
  aws_dynamodb as dynamodb,
  aws_iam as iam,
  aws_kms as kms,
  aws_logs as logs,
  RemovalPolicy,
  Stack,
  type StackProps,
  aws_sns as sns,
  aws_sns_subscriptions as subscriptions,
  Validations,
  aws_wafv2 as wafv2,
} from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { BEARER_HEADER_PATTERN } from '../lambda/auth/bearer';
import { FUNCTION_LIMITS, SERVICE_NAME } from '../lambda/config/defaults';
import { ERROR_HEADERS, ERROR_MESSAGES, errorEnvelope } from '../lambda/http/errors';
import {
  GATEWAY_RESPONSES,
  type GatewayResponseDefinition,
  type GatewayResponseType,
  gatewayResponseTemplate,
  METHOD_NOT_ALLOWED,
} from '../lambda/http/gateway-responses';
import { ACTIVE_INDEX } from '../lambda/schema/tables';
import { LISTING_PATH } from '../lambda/vacancies/pagination';
import { ApiFunction } from './api-function';
import { DataTables } from './data-tables';
import type { ServiceSettings } from './settings';
import { STACK_OUTPUTS } from './stack-outputs';

/** Properties of the Vendor Vacancy API stack. */
export interface VacancyApiStackProps extends StackProps {
  readonly settings: ServiceSettings;
}

const entry = (path: string) => new URL(`../lambda/${path}`, import.meta.url).pathname;
const quoted = (value: string) => `'${value}'`;

/** Response headers of a gateway response or mock integration, in API Gateway's mapping syntax. */
function headerMappings(definition: GatewayResponseDefinition): Record<string, string> {
  const headers: Record<string, string> = { 'X-Request-Id': 'context.requestId' };
  for (const [name, value] of Object.entries({ ...ERROR_HEADERS, ...definition.headers })) {
    headers[name] = quoted(value);
  }
  return headers;
}

/**
 * The Vendor Vacancy API: DynamoDB tables, the TOKEN authorizer and listing functions, and a REST API whose
 * every method is behind the authorizer by default, whose every error is in the contract's envelope, with
 * access logs, throttling, tracing and alarms.
 */
export class VacancyApiStack extends Stack {
  public readonly api: apigateway.RestApi;

  constructor(scope: Construct, id: string, props: VacancyApiStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const removalPolicy = settings.destroyOnRemoval ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
    const logRetention = settings.logRetentionDays as logs.RetentionDays;

    const data = new DataTables(this, 'Data', { destroyOnRemoval: settings.destroyOnRemoval });

    // Memory and timeouts are the functions' own limits (FUNCTION_LIMITS), which the local server enforces too.
    const authorizer = new ApiFunction(this, 'Authorizer', {
      entry: entry('auth/handler.ts'),
      description: 'Vendor Vacancy API: resolves a Bearer API key to its vendor',
      limits: FUNCTION_LIMITS.authorizer,
      environment: { VENDORS_TABLE: data.vendors.tableName, POWERTOOLS_SERVICE_NAME: SERVICE_NAME },
      statements: [
        new iam.PolicyStatement({ actions: ['dynamodb:GetItem'], resources: [data.vendors.tableArn] }),
      ],
      logRetention,
      logRemovalPolicy: removalPolicy,
      tracing: settings.tracing,
    });

    const listing = new ApiFunction(this, 'Listing', {
      entry: entry('vacancies/handler.ts'),
      description: 'Vendor Vacancy API: GET /vendor/vacancies',
      limits: FUNCTION_LIMITS.listing,
      environment: {
        VACANCIES_TABLE: data.vacancies.tableName,
        DEFAULT_LOCALE: settings.defaultLocale,
        RATE_TIERS: JSON.stringify(settings.rateTiers),
        SERVICE_TIMEZONE: settings.serviceTimeZone,
        DEFAULT_PER_PAGE: String(settings.defaultPerPage),
        ...(settings.publicBaseUrl && { PUBLIC_BASE_URL: settings.publicBaseUrl }),
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      },
      statements: [
        // Exactly the two reads of a listing (docs/design.md#how-a-listing-reads): Query on the active index, BatchGetItem of a page.
        new iam.PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [`${data.vacancies.tableArn}/index/${ACTIVE_INDEX.name}`],
        }),
        new iam.PolicyStatement({ actions: ['dynamodb:BatchGetItem'], resources: [data.vacancies.tableArn] }),
      ],
      logRetention,
      logRemovalPolicy: removalPolicy,
      tracing: settings.tracing,
    });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: logRetention, removalPolicy });
    this.api = new apigateway.RestApi(this, 'Api', {
      restApiName: settings.stackName,
      // Clients send only their Bearer key: the authorizer names the vendor's usage key, and the usage plan of
      // that key (the vendor's rate tier) throttles it.
      apiKeySourceType: apigateway.ApiKeySourceType.AUTHORIZER,
      description: 'Vendor Vacancy API: a vendor lists its own active vacancies',
      endpointConfiguration: { types: [apigateway.EndpointType.REGIONAL] },
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
        accessLogFormat: apigateway.AccessLogFormat.custom(
          JSON.stringify({
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
          }),
        ),
      },
      // Every method is behind the key authorizer unless it explicitly says otherwise.
      defaultMethodOptions: {
        authorizer: new apigateway.TokenAuthorizer(this, 'KeyAuthorizer', {
          handler: authorizer.function,
          identitySource: apigateway.IdentitySource.header('Authorization'),
          // Malformed headers are refused (401) by API Gateway itself, without invoking the function.
          validationRegex: BEARER_HEADER_PATTERN,
          resultsCacheTtl: Duration.seconds(settings.authorizerCacheSeconds),
        }),
      },
    });

    this.acknowledgeApiFindings();

    for (const [type, definition] of Object.entries(GATEWAY_RESPONSES) as [
      GatewayResponseType,
      GatewayResponseDefinition,
    ][]) {
      this.api.addGatewayResponse(`Response${type}`, {
        type: apigateway.ResponseType.of(type),
        ...(definition.statusCode && { statusCode: String(definition.statusCode) }),
        responseHeaders: headerMappings(definition),
        templates: { 'application/json': gatewayResponseTemplate(definition) },
      });
    }

    const resource = this.api.root.resourceForPath(LISTING_PATH);
    const get = resource.addMethod(
      'GET',
      new apigateway.LambdaIntegration(listing.function, { allowTestInvoke: false }),
      { apiKeyRequired: true },
    );
    const usagePlans = this.rateTiers(settings);
    this.webApplicationFirewall(settings);
    // Any other method: 405 from a mock integration. It reaches no code and no data, so it needs no key,
    // and answers before authentication, as routing does.
    const notAllowedHeaders = headerMappings(METHOD_NOT_ALLOWED);
    const notAllowed = resource.addMethod(
      'ANY',
      new apigateway.MockIntegration({
        requestTemplates: { 'application/json': '{"statusCode": 405}' },
        passthroughBehavior: apigateway.PassthroughBehavior.WHEN_NO_MATCH,
        integrationResponses: [
          {
            statusCode: '405',
            responseTemplates: { 'application/json': gatewayResponseTemplate(METHOD_NOT_ALLOWED) },
            responseParameters: Object.fromEntries(
              Object.entries(notAllowedHeaders).map(([name, value]) => [
                `method.response.header.${name}`,
                value,
              ]),
            ),
          },
        ],
      }),
      {
        authorizationType: apigateway.AuthorizationType.NONE,
        methodResponses: [
          {
            statusCode: '405',
            responseParameters: Object.fromEntries(
              Object.keys(notAllowedHeaders).map((name) => [`method.response.header.${name}`, true]),
            ),
          },
        ],
      },
    );

    for (const method of [get, notAllowed]) {
      Validations.of(method).acknowledge({
        id: 'AwsSolutions::AwsSolutions-COG4',
        reason:
          'Vendors are machine clients identified by API keys, checked by the Lambda TOKEN authorizer (docs/api.md#authentication); Cognito user pools are for people signing in.',
      });
    }
    Validations.of(notAllowed).acknowledge({
      id: 'AwsSolutions::AwsSolutions-APIG4',
      reason:
        'A mock integration that answers 405 to methods other than GET: it reaches no function and no data.',
    });

    const alarmTopic = this.alarms(settings, data, authorizer, listing, accessLogs);

    const output = (id: string, value: string, description: string) =>
      new CfnOutput(this, id, { value, description });
    output(STACK_OUTPUTS.apiUrl, this.api.url, 'Base URL of the API (stage included)');
    output(
      STACK_OUTPUTS.listingUrl,
      this.api.urlForPath(LISTING_PATH),
      'GET this with Authorization: Bearer <key>',
    );
    output(STACK_OUTPUTS.stageName, settings.stageName, 'API Gateway stage');
    output(STACK_OUTPUTS.vacanciesTable, data.vacancies.tableName, 'Vacancies table (ops CLI target)');
    output(STACK_OUTPUTS.vendorsTable, data.vendors.tableName, 'Vendors and API key hashes (ops CLI target)');
    output(STACK_OUTPUTS.alarmTopic, alarmTopic.topicArn, 'SNS topic of the alarms');
    output(
      STACK_OUTPUTS.rateTiers,
      this.toJsonString({ default: settings.defaultRateTier, plans: usagePlans }),
      'Default rate tier, and the usage plan id of each tier (the ops CLI links vendor keys to them)',
    );
    output(
      STACK_OUTPUTS.serviceTimeZone,
      settings.serviceTimeZone,
      'Time zone of created_at without an offset (the ops CLI imports in it)',
    );
  }

  /**
   * One usage plan per rate tier, on the stage: its throttle is the tier's rate and burst, per vendor key. The
   * stage's own throttle stays the ceiling over all vendors. Returns each tier's plan id.
   */
  private rateTiers(settings: ServiceSettings): Record<string, string> {
    const plans: Record<string, string> = {};
    for (const [tier, { rate, burst }] of Object.entries(settings.rateTiers)) {
      const plan = this.api.addUsagePlan(`RateTier-${tier}`, {
        name: `${settings.stackName}-${tier}`,
        description: `Rate tier "${tier}": ${rate} requests/s, burst ${burst}, per vendor`,
        throttle: { rateLimit: rate, burstLimit: burst },
        apiStages: [{ api: this.api, stage: this.api.deploymentStage }],
      });
      plans[tier] = plan.usagePlanId;
    }
    return plans;
  }

  /**
   * The optional per-IP limit (setting `wafRateLimit`): an AWS WAF web ACL on the stage with one rate-based rule,
   * against floods of made-up keys (each of which would run the authorizer). Its block is a 429 with the
   * contract's body; WAF cannot fill in the request id (the body says "") nor set `Retry-After` (it prefixes
   * the headers it adds with `x-amzn-waf-`).
   */
  private webApplicationFirewall(settings: ServiceSettings): void {
    if (settings.wafRateLimit === 0) {
      Validations.of(this.api).acknowledge({
        id: 'AwsSolutions::AwsSolutions-APIG3',
        reason:
          'Every method needs a valid API key and each vendor is throttled by its rate tier; the per-IP AWS WAF limit is a setting (wafRateLimit), off by default for its monthly charge.',
      });
      return;
    }
    const metric = (name: string) => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: `${settings.stackName}-${name}`,
    });
    const webAcl = new wafv2.CfnWebACL(this, 'PerIpLimit', {
      scope: 'REGIONAL',
      description: `At most ${settings.wafRateLimit} requests per 5 minutes from one IP address`,
      defaultAction: { allow: {} },
      visibilityConfig: metric('web-acl'),
      customResponseBodies: {
        tooManyRequests: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify(errorEnvelope(ERROR_MESSAGES[429], '')),
        },
      },
      rules: [
        {
          name: 'per-ip-rate',
          priority: 0,
          statement: {
            rateBasedStatement: {
              limit: settings.wafRateLimit,
              aggregateKeyType: 'IP',
              evaluationWindowSec: 300,
            },
          },
          action: {
            block: { customResponse: { responseCode: 429, customResponseBodyKey: 'tooManyRequests' } },
          },
          visibilityConfig: metric('per-ip-rate'),
        },
      ],
    });
    new wafv2.CfnWebACLAssociation(this, 'PerIpLimitOnStage', {
      resourceArn: this.api.deploymentStage.stageArn,
      webAclArn: webAcl.attrArn,
    });
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

  /**
   * Alarms on what a vendor would notice — 5XX answers, slow listings, failing key checks (a vendor without a
   * usage key among them), DynamoDB throttling, usage keys in no plan — all sent to one SNS topic (encrypted, TLS only), with an e-mail subscription if configured.
   */
  private alarms(
    settings: ServiceSettings,
    data: DataTables,
    authorizer: ApiFunction,
    listing: ApiFunction,
    accessLogs: logs.LogGroup,
  ): sns.Topic {
    const topic = new sns.Topic(this, 'Alarms', {
      displayName: 'Vendor Vacancy API alarms',
      enforceSSL: true,
      masterKey: kms.Alias.fromAliasName(this, 'SnsKey', 'alias/aws/sns'),
    });
    if (settings.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(settings.alarmEmail));
    const notify = new actions.SnsAction(topic);
    const period = Duration.minutes(5);

    const serverErrorRate = new cloudwatch.MathExpression({
      label: '5XX answers, % of requests',
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: this.api.metricServerError({ period, statistic: 'Sum' }),
        requests: this.api.metricCount({ period, statistic: 'SampleCount' }),
      },
      period,
    });

    // The authorizer throws "Unauthorized" for every refused key, which Lambda counts as an error; only
    // its ERROR log lines (a failed key check, e.g. DynamoDB unavailable) are failures worth an alarm.
    const authorizerFailures = new logs.MetricFilter(this, 'AuthorizerFailures', {
      logGroup: authorizer.logGroup,
      filterPattern: logs.FilterPattern.stringValue('$.level', '=', 'ERROR'),
      metricNamespace: 'VendorVacancyApi',
      metricName: 'AuthorizerFailures',
      metricValue: '1',
      defaultValue: 0,
    }).metric({ period, statistic: 'Sum' });

    const throttled = new cloudwatch.MathExpression({
      label: 'Throttled DynamoDB reads',
      expression: 'vacancies + vendors',
      usingMetrics: {
        vacancies: data.vacancies.metricThrottledRequestsForOperations({
          operations: [dynamodb.Operation.QUERY, dynamodb.Operation.BATCH_GET_ITEM],
          period,
        }),
        vendors: data.vendors.metricThrottledRequestsForOperations({
          operations: [dynamodb.Operation.GET_ITEM],
          period,
        }),
      },
      period,
    });

    const alarm = (
      id: string,
      description: string,
      metric: cloudwatch.IMetric,
      threshold: number,
      periods = 1,
    ) =>
      new cloudwatch.Alarm(this, id, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: periods,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(notify);

    alarm('ServerErrorRate', 'More than 1% of requests answered 5XX for 10 minutes', serverErrorRate, 1, 2);
    alarm(
      'ListingLatencyP99',
      'Listing p99 duration above 1 s for 15 minutes',
      listing.function.metricDuration({ period, statistic: 'p99' }),
      1000,
      3,
    );
    alarm('AuthorizerFailing', 'The authorizer failed to check keys (not refusals)', authorizerFailures, 0);
    alarm('DynamoDBThrottling', 'DynamoDB throttled reads of the API', throttled, 0);

    // API Gateway answered INVALID_API_KEY (our 500): a vendor's usage key is in no usage plan of the stage.
    const invalidUsageKeys = new logs.MetricFilter(this, 'InvalidUsageKeys', {
      logGroup: accessLogs,
      filterPattern: logs.FilterPattern.stringValue('$.error', '=', 'INVALID_API_KEY'),
      metricNamespace: 'VendorVacancyApi',
      metricName: 'InvalidUsageKeys',
      metricValue: '1',
      defaultValue: 0,
    }).metric({ period, statistic: 'Sum' });
    alarm(
      'UsageKeyMisconfigured',
      'A vendor\'s usage key is in no usage plan: its requests answer 500. Run "vacancy-admin --stack <stack> vendor sync-usage-keys".',
      invalidUsageKeys,
      0,
    );
    return topic;
  }
}
