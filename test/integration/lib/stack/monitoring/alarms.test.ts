/**
 * The alarms (`lib/stack/monitoring/alarms.ts`), from the template of a detailed deployment: which, their
 * thresholds and periods, the metrics they read — named metrics, never log levels — their topic, and a runbook line
 * for each in docs/operating.md.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { METRICS_NAMESPACE } from '../../../../../lambda/domain/service/metrics';
import { alarmsByName, STACK_NAME, templateResources } from '../../../../../testkit/stack';
import { sharedStackTemplate } from '../../../../../testkit/synth-server';

const template = await sharedStackTemplate({ monitoring: 'detailed' });
const { ofType, logicalIdOf } = templateResources(template);
const STACK = STACK_NAME;

describe('alarms', () => {
  const alarms = alarmsByName(template);
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

  it('derive the stage alarm from the stage limit setting', async () => {
    const faster = await sharedStackTemplate({
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
    const operating = readFileSync(new URL('../../../../../docs/operating.md', import.meta.url), 'utf8');
    const section = operating.slice(operating.indexOf('\n## Alarms'));
    for (const name of alarms.keys())
      expect(section).toMatch(new RegExp(`^\\| \`${name}\` \\|.+\\|.+\\|$`, 'm'));
  });
});
