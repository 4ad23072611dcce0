/**
 * The stack's monitoring, from its template: the alarms and their thresholds, the Contributor Insights rules
 * (checked against real log lines of the listing and the access log's format), the dashboard's widgets, and
 * the logical ids an update must not change.
 */
import { readFileSync } from 'node:fs';
import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it, jest } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { reportPage } from '../../../../lambda/functions/vacancies/report';
import { SERVICE_NAME } from '../../../../lambda/platform/defaults';
import { METRICS_NAMESPACE } from '../../../../lambda/platform/observability/metrics';
import { ACCESS_LOG_FORMAT } from '../../../../lib/stack/rest-api';
import { testMetrics } from '../../../../testkit/lambda';
import { stackTemplate } from '../../../../testkit/stack';

const template = stackTemplate({ monitoring: 'detailed' });
const resources = template.toJSON().Resources as Record<
  string,
  { Type: string; Properties: Record<string, never> }
>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const STACK = 'VendorVacancyApi';

/** A CloudFormation string built with Fn::Join, references written as `<Logical id>`. */
function joined(value: unknown): string {
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) return `<${JSON.stringify(value).replace(/"/g, '')}>`;
  return join[1].map((part) => joined(part)).join(join[0]);
}

const logicalIdOf = (type: string, prefix: string) => {
  const [entry] = ofType(type).filter(([id]) => id.startsWith(prefix));
  if (!entry) throw new Error(`No ${type} ${prefix}…`);
  return entry[0];
};

describe('alarms', () => {
  const alarms = new Map(
    ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => [
      String(alarm.Properties.AlarmName).replace(`${STACK}-`, ''),
      alarm.Properties as Record<string, unknown>,
    ]),
  );
  const expression = (name: string) =>
    JSON.stringify((alarms.get(name)?.Metrics as unknown[] | undefined) ?? alarms.get(name));

  it('are these eleven, each named for the stack, each notifying the encrypted, TLS-only topic', () => {
    expect([...alarms.keys()].sort()).toEqual(
      [
        'AuthorizerFailing',
        'DynamoDBThrottling',
        'ExpiryFailing',
        'ImportFailing',
        'IsolationBreach',
        'LatencyP99',
        'ServerErrorRate',
        'StageNearCeiling',
        'ThrottledVendors',
        'UsageKeyMisconfigured',
        'WebhookEndpointDisabled',
      ].sort(),
    );
    for (const alarm of alarms.values()) {
      expect(alarm.AlarmActions).toEqual([{ Ref: logicalIdOf('AWS::SNS::Topic', 'Alarms') }]);
      expect(alarm.TreatMissingData).toBe('notBreaching');
    }
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it.each([
    // API Gateway's 5XXError averaged: the share of requests answered 5XX, one metric.
    [
      'ServerErrorRate',
      0.01,
      'GreaterThanThreshold',
      2,
      ['"MetricName":"5XXError"', '"Statistic":"Average"'],
    ],
    ['LatencyP99', 1000, 'GreaterThanThreshold', 3, ['"MetricName":"Latency"', '"ExtendedStatistic":"p99"']],
    ['AuthorizerFailing', 0, 'GreaterThanThreshold', 1, ['"MetricName":"KeyChecksFailed"']],
    [
      'IsolationBreach',
      0,
      'GreaterThanThreshold',
      1,
      ['"MetricName":"ForeignItems"', `"Namespace":"${METRICS_NAMESPACE}"`, '"Stat":"Sum"'],
    ],
    [
      'DynamoDBThrottling',
      0,
      'GreaterThanThreshold',
      1,
      ['"MetricName":"ThrottledRequests"', '"Value":"Query"'],
    ],
    ['UsageKeyMisconfigured', 0, 'GreaterThanThreshold', 1, ['"MetricName":"InvalidUsageKeys"']],
    [
      'ThrottledVendors',
      3,
      'GreaterThanOrEqualToThreshold',
      1,
      [`INSIGHT_RULE_METRIC('${STACK}-throttled-by-vendor', 'UniqueContributors')`],
    ],
    // 80% of the default stage limit of 50 requests/s.
    ['StageNearCeiling', 80, 'GreaterThanOrEqualToThreshold', 1, ['100 * requests / PERIOD(requests) / 50']],
  ])(
    '%s: over %p (%s), %p period(s) of 5 minutes, on its metric',
    (name, threshold, operator, periods, parts) => {
      expect(alarms.get(name)).toMatchObject({
        Threshold: threshold,
        ComparisonOperator: operator,
        EvaluationPeriods: periods,
      });
      for (const part of parts) expect(expression(name)).toContain(part);
    },
  );

  it('read named metrics, never log levels: failed key checks and unusable usage keys are what API Gateway answered', () => {
    const filters = ofType('AWS::Logs::MetricFilter').map(
      ([, filter]) => filter.Properties as Record<string, unknown>,
    );
    expect(
      filters.map(({ FilterPattern, LogGroupName, MetricTransformations }) => [
        (MetricTransformations as { MetricName: string }[])[0]?.MetricName,
        FilterPattern,
        LogGroupName,
      ]),
    ).toEqual([
      [
        'KeyChecksFailed',
        '{ ($.error = "AUTHORIZER_FAILURE") || ($.error = "AUTHORIZER_CONFIGURATION_ERROR") }',
        { Ref: logicalIdOf('AWS::Logs::LogGroup', 'AccessLogs') },
      ],
      [
        'InvalidUsageKeys',
        '{ $.error = "INVALID_API_KEY" }',
        { Ref: logicalIdOf('AWS::Logs::LogGroup', 'AccessLogs') },
      ],
    ]);
    for (const { FilterPattern } of filters) expect(FilterPattern).not.toMatch(/level/);
  });

  it('ignores a p99 over too few requests to mean anything', () => {
    expect(alarms.get('LatencyP99')?.EvaluateLowSampleCountPercentile).toBe('ignore');
  });

  it('derive the stage alarm from the stage limit setting', () => {
    const faster = stackTemplate({
      throttlingRateLimit: 200,
      throttlingBurstLimit: 400,
      monitoring: 'detailed',
    });
    faster.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: `${STACK}-StageNearCeiling`,
      Metrics: Match.arrayWith([Match.objectLike({ Expression: '100 * requests / PERIOD(requests) / 200' })]),
    });
  });

  it('each have a runbook line in docs/operating.md', () => {
    const operating = readFileSync(new URL('../../../../docs/operating.md', import.meta.url), 'utf8');
    const section = operating.slice(operating.indexOf('\n## Alarms'));
    for (const name of alarms.keys())
      expect(section).toMatch(new RegExp(`^\\| \`${name}\` \\|.+\\|.+\\|$`, 'm'));
  });
});

describe('Contributor Insights rules', () => {
  const rules = new Map(
    ofType('AWS::CloudWatch::InsightRule').map(([, rule]) => [
      String(rule.Properties.RuleName).replace(`${STACK}-`, ''),
      { state: rule.Properties.RuleState, body: JSON.parse(joined(rule.Properties.RuleBody)) },
    ]),
  );
  const accessLogs = `<{Ref:${logicalIdOf('AWS::Logs::LogGroup', 'AccessLogs')}}>`;
  const listingLogs = `<{Ref:${logicalIdOf('AWS::Logs::LogGroup', 'FunctionsListingLogs')}}>`;

  /** Whether a rule counts a log line, as Contributor Insights applies the filters used here (top-level fields). */
  function counts(
    body: { Contribution: { Keys: string[]; Filters: Record<string, unknown>[] } },
    line: object,
  ) {
    const field = (path: string) => (line as Record<string, unknown>)[path.replace(/^\$\./, '')];
    const present = body.Contribution.Keys.every((key) => field(key) !== undefined);
    return (
      present &&
      body.Contribution.Filters.every((filter) => {
        const value = String(field(String(filter.Match)));
        if (filter.In) return (filter.In as string[]).includes(value);
        if (filter.NotIn) return !(filter.NotIn as string[]).includes(value);
        if (filter.StartsWith)
          return (filter.StartsWith as string[]).some((prefix) => value.startsWith(prefix));
        throw new Error(`A filter this test does not know: ${JSON.stringify(filter)}`);
      })
    );
  }

  /** An access log line as API Gateway would write it with these values of its context variables. */
  const accessLine = (values: Partial<Record<keyof typeof ACCESS_LOG_FORMAT, string>>) =>
    Object.fromEntries(Object.keys(ACCESS_LOG_FORMAT).map((field) => [field, values[field as never] ?? '-']));

  it('are five, enabled, in the JSON log rule schema, named for the stack', () => {
    expect([...rules.keys()].sort()).toEqual(
      [
        'client-errors-by-vendor',
        'read-units-by-vendor',
        'refused-keys-by-ip',
        'requests-by-vendor',
        'throttled-by-vendor',
      ].sort(),
    );
    for (const { state, body } of rules.values()) {
      expect(state).toBe('ENABLED');
      expect(body).toMatchObject({ Schema: { Name: 'CloudWatchLogRule', Version: 1 }, LogFormat: 'JSON' });
    }
  });

  it.each([
    ['requests-by-vendor', { vendorId: 'acme', status: '200' }, true],
    ['requests-by-vendor', { status: '401' }, false],
    ['throttled-by-vendor', { vendorId: 'acme', status: '429' }, true],
    ['throttled-by-vendor', { status: '429' }, true],
    ['throttled-by-vendor', { vendorId: 'acme', status: '200' }, false],
    ['client-errors-by-vendor', { vendorId: 'acme', status: '422' }, true],
    ['client-errors-by-vendor', { vendorId: 'acme', status: '403' }, true],
    ['client-errors-by-vendor', { status: '401' }, false],
    ['client-errors-by-vendor', { vendorId: 'acme', status: '503' }, false],
    ['refused-keys-by-ip', { ip: '203.0.113.9', status: '401' }, true],
    ['refused-keys-by-ip', { ip: '203.0.113.9', vendorId: 'acme', status: '200' }, false],
  ] as const)('%s, on the access log, counts %j: %p', (ruleId, values, counted) => {
    const rule = rules.get(ruleId);
    expect(rule?.body.LogGroupNames).toEqual([accessLogs]);
    expect(rule?.body.AggregateOn).toBe('Count');
    expect(counts(rule?.body, accessLine(values))).toBe(counted);
  });

  it("ranks vendors by the read units of the listing's own log line", () => {
    const rule = rules.get('read-units-by-vendor');
    expect(rule?.body).toMatchObject({ LogGroupNames: [listingLogs], AggregateOn: 'Sum' });
    // The line the listing writes when it serves a page, captured as it is printed.
    const printed: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    try {
      const logger = new Logger({ serviceName: SERVICE_NAME, logLevel: 'INFO' });
      reportPage(
        logger,
        testMetrics('listing'),
        { vendorId: 'acme', company: 'Acme', rateTier: 'standard' },
        {
          body: {
            status: 'success',
            company: 'Acme',
            data: [],
            pagination: {
              current_page: 1,
              last_page: 1,
              per_page: 15,
              total: 0,
              next_page_url: null,
              prev_page_url: null,
            },
          },
          locale: 'en',
          readUnits: 1.5,
          calls: 1,
          foreignItems: 0,
        },
      );
    } finally {
      write.mockRestore();
    }
    const [line] = printed.map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(counts(rule?.body, line as object)).toBe(true);
    expect(line?.[String(rule?.body.Contribution.ValueOf).replace('$.', '')]).toBe(1.5);
    expect(line?.[String(rule?.body.Contribution.Keys[0]).replace('$.', '')]).toBe('acme');
  });
});

describe('the default monitoring profile', () => {
  const plain = stackTemplate();
  const plainResources = plain.toJSON().Resources as Record<
    string,
    { Type: string; Properties: Record<string, unknown> }
  >;
  const plainOf = (type: string) =>
    Object.entries(plainResources).filter(([, resource]) => resource.Type === type);
  const plainAlarms = new Map(
    plainOf('AWS::CloudWatch::Alarm').map(([, alarm]) => [
      String(alarm.Properties.AlarmName).replace(`${STACK}-`, ''),
      alarm.Properties,
    ]),
  );

  it('keeps the alarms that protect data, tenants and availability, on metrics AWS publishes (a log filter where none is)', () => {
    expect([...plainAlarms.keys()].sort()).toEqual(
      [
        'AuthorizerFailing',
        'DynamoDBThrottling',
        'ExpiryFailing',
        'ImportFailing',
        'IsolationBreach',
        'LatencyP99',
        'ServerErrorRate',
        'WebhookEndpointDisabled',
      ].sort(),
    );
    const uses = (name: string) => JSON.stringify(plainAlarms.get(name));
    expect(uses('ServerErrorRate')).toContain('"Namespace":"AWS/ApiGateway"');
    expect(uses('LatencyP99')).toContain('"Namespace":"AWS/ApiGateway"');
    expect(uses('ExpiryFailing')).toContain('"Namespace":"AWS/Lambda"');
    expect(uses('ImportFailing')).toContain('"Namespace":"AWS/Lambda"');
    // A run that disabled an endpoint fails on purpose (lambda/functions/webhooks/handler.ts): the free Errors metric says so.
    expect(uses('WebhookEndpointDisabled')).toContain('"Namespace":"AWS/Lambda"');
    expect(uses('WebhookEndpointDisabled')).toContain('"MetricName":"Errors"');
    expect(uses('DynamoDBThrottling')).toContain('"Namespace":"AWS/DynamoDB"');
    // Where AWS publishes nothing: the access log's failed key checks, the listing's line about another vendor's items.
    expect(
      plainOf('AWS::Logs::MetricFilter')
        .map(([, filter]) => filter.Properties.FilterPattern)
        .sort(),
    ).toEqual([
      '{ $.foreignItems > 0 }',
      '{ ($.error = "AUTHORIZER_FAILURE") || ($.error = "AUTHORIZER_CONFIGURATION_ERROR") }',
    ]);
    expect(uses('IsolationBreach')).toContain('"MetricName":"ForeignItemsLogged"');
  });

  it('counts items of another vendor from the very line the listing logs about them', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = new Logger({ serviceName: SERVICE_NAME });
    jest.spyOn(logger, 'error').mockImplementation((message, ...extra) => {
      lines.push({ message, ...(extra[0] as object) });
    });
    jest.spyOn(logger, 'info').mockImplementation(() => {});
    reportPage(logger, testMetrics('listing'), { vendorId: 'acme', company: 'Acme', rateTier: 'standard' }, {
      body: {
        status: 'success',
        company: 'Acme',
        data: [],
        pagination: { current_page: 1, per_page: 15, total: 0 },
      },
      readUnits: 1,
      calls: 1,
      foreignItems: 2,
    } as never);
    const [filter] = plainOf('AWS::Logs::MetricFilter').filter(([id]) => id.includes('ForeignItems'));
    expect(filter?.[1].Properties.MetricTransformations).toEqual([
      expect.objectContaining({ MetricValue: '$.foreignItems', DefaultValue: 0 }),
    ]);
    expect(lines).toEqual([expect.objectContaining({ foreignItems: 2 })]);
  });

  it('has no dashboard, no Contributor Insights rule, and the functions emit no metrics', () => {
    expect(plainOf('AWS::CloudWatch::Dashboard')).toEqual([]);
    expect(plainOf('AWS::CloudWatch::InsightRule')).toEqual([]);
    const functions = plainOf('AWS::Lambda::Function').filter(([id]) => id.startsWith('Functions'));
    expect(functions).toHaveLength(5);
    for (const [, fn] of functions) {
      expect((fn.Properties.Environment as { Variables: Record<string, string> }).Variables).toMatchObject({
        POWERTOOLS_METRICS_DISABLED: 'true',
      });
    }
  });
});

describe('the dashboard', () => {
  const [[, dashboard] = []] = ofType('AWS::CloudWatch::Dashboard');
  const body = JSON.parse(joined(dashboard?.Properties.DashboardBody)) as {
    widgets: { type: string; properties: Record<string, unknown> }[];
  };
  const widget = (title: string) => {
    const found = body.widgets.find((w) => w.properties.title === title);
    if (!found) throw new Error(`No widget "${title}"`);
    return found.properties;
  };
  /** A widget's metrics as `namespace name dimension=value… stat`, expressions as they are. */
  const metricsOf = (title: string) =>
    ((widget(title).metrics as unknown[][]) ?? []).map((row) => {
      const options = (row.at(-1) ?? {}) as { stat?: string; expression?: string };
      if (options.expression) return options.expression;
      const [namespace, name, ...rest] = row.filter((part) => typeof part === 'string') as string[];
      const dimensions = [];
      for (let i = 0; i + 1 < rest.length; i += 2) dimensions.push(`${rest[i]}=${rest[i + 1]}`);
      return [namespace, name, ...dimensions.sort(), options.stat].join(' ');
    });
  const fn = (name: 'Authorizer' | 'Listing') =>
    `FunctionName=<{Ref:${logicalIdOf('AWS::Lambda::Function', `Functions${name}Function`)}}>`;
  const api = `ApiName=${STACK}`;

  it('starts with the state of every alarm', () => {
    const [first] = body.widgets;
    expect(first?.type).toBe('alarm');
    const arns = first?.properties.alarms as string[];
    expect(arns).toHaveLength(ofType('AWS::CloudWatch::Alarm').length);
    for (const [id] of ofType('AWS::CloudWatch::Alarm')) expect(arns).toContain(`<{Fn::GetAtt:[${id},Arn]}>`);
  });

  it("shows the API's requests, error rates (429s apart) and latency p50/p90/p99 with integration latency", () => {
    expect(metricsOf('Requests')).toContain(`AWS/ApiGateway Count ${api} Sum`);
    expect(metricsOf('Error rates')).toEqual(
      expect.arrayContaining([
        `AWS/ApiGateway 4XXError ${api} Sum`,
        `AWS/ApiGateway 5XXError ${api} Sum`,
        `INSIGHT_RULE_METRIC('${STACK}-throttled-by-vendor', 'SampleCount')`,
      ]),
    );
    expect(metricsOf('Latency')).toEqual([
      `AWS/ApiGateway Latency ${api} p50`,
      `AWS/ApiGateway Latency ${api} p90`,
      `AWS/ApiGateway Latency ${api} p99`,
      `AWS/ApiGateway IntegrationLatency ${api} p50`,
      `AWS/ApiGateway IntegrationLatency ${api} p99`,
    ]);
  });

  it('shows both functions: duration, errors, throttles, cold starts, concurrent executions', () => {
    for (const name of ['Authorizer', 'Listing'] as const) {
      expect(metricsOf('Function duration')).toEqual(
        expect.arrayContaining([
          `AWS/Lambda Duration ${fn(name)} p50`,
          `AWS/Lambda Duration ${fn(name)} p99`,
        ]),
      );
      expect(metricsOf('Function errors and throttles')).toEqual(
        expect.arrayContaining([`AWS/Lambda Errors ${fn(name)} Sum`, `AWS/Lambda Throttles ${fn(name)} Sum`]),
      );
      expect(metricsOf('Function errors and throttles')).toContain(
        `${METRICS_NAMESPACE} ColdStart function_name=${name.toLowerCase()} service=${SERVICE_NAME} Sum`,
      );
      expect(metricsOf('Concurrent executions')).toContain(
        `AWS/Lambda ConcurrentExecutions ${fn(name)} Maximum`,
      );
    }
  });

  it("shows read units per listing (p50, p99) from the listing's metrics — the service its only dimension", () => {
    expect(metricsOf('Read units per listing')).toEqual([
      `${METRICS_NAMESPACE} ReadUnits service=${SERVICE_NAME} p50`,
      `${METRICS_NAMESPACE} ReadUnits service=${SERVICE_NAME} p99`,
      `${METRICS_NAMESPACE} ReadUnits service=${SERVICE_NAME} Maximum`,
    ]);
    const tables = ['DataVacancies', 'DataVendors'].map(
      (prefix) => `TableName=<{Ref:${logicalIdOf('AWS::DynamoDB::Table', prefix)}}>`,
    );
    expect(metricsOf('DynamoDB consumed reads')).toEqual(
      expect.arrayContaining([
        `AWS/DynamoDB ConsumedReadCapacityUnits ${tables[0]} Sum`,
        `AWS/DynamoDB ConsumedReadCapacityUnits ${tables[1]} Sum`,
        `AWS/DynamoDB ThrottledRequests Operation=Query ${tables[0]} Sum`,
        `AWS/DynamoDB ThrottledRequests Operation=GetItem ${tables[1]} Sum`,
      ]),
    );
  });

  it('shows the top vendors of every rule, and the top IPs of refused keys', () => {
    const ruleNames = body.widgets
      .map((w) => (w.properties.insightRule as { ruleName?: string } | undefined)?.ruleName)
      .filter(Boolean);
    expect(ruleNames.sort()).toEqual(
      ofType('AWS::CloudWatch::InsightRule')
        .map(([, rule]) => String(rule.Properties.RuleName))
        .sort(),
    );
  });

  it('is linked from the outputs', () => {
    const output = template.findOutputs('DashboardUrl').DashboardUrl;
    expect(joined(output?.Value)).toMatch(
      new RegExp(
        `^https://<.+>\\.console\\.aws\\.amazon\\.com/cloudwatch/home\\?region=<.+>#dashboards/dashboard/${STACK}$`,
      ),
    );
    expect(dashboard?.Properties.DashboardName).toBe(STACK);
  });
});

describe('updating a deployment of the first version', () => {
  it("keeps the logical ids of what holds data, an address or the vendors' plans", () => {
    // Tables, the REST API and its stage (its URL), the usage plan (the vendors' keys in it), the alarm topic (its
    // subscriptions), the access log group: replacing any of these on update would lose something.
    for (const [type, id] of [
      ['AWS::DynamoDB::Table', 'DataVacancies21D4FDF0'],
      ['AWS::DynamoDB::Table', 'DataVendors8B837E99'],
      ['AWS::ApiGateway::RestApi', 'ApiF70053CD'],
      ['AWS::ApiGateway::Stage', 'ApiDeploymentStageprod3EB9684E'],
      ['AWS::ApiGateway::UsagePlan', 'ApiRateTierstandard2DF4F56C'],
      ['AWS::SNS::Topic', 'Alarms04B5A0BF'],
      ['AWS::Logs::LogGroup', 'AccessLogs8B620ECA'],
    ]) {
      expect(resources[id as string]?.Type).toBe(type);
    }
  });
});
