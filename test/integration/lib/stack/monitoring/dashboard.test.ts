/**
 * The dashboard (`lib/stack/monitoring/dashboard.ts`), from the template of a detailed deployment: the alarms'
 * state first, then the API, the functions, what a listing reads and the top contributors; linked from the outputs.
 */
import { describe, expect, it } from '@jest/globals';
import { SERVICE_NAME } from '../../../../../lambda/domain/service/limits';
import { METRICS_NAMESPACE } from '../../../../../lambda/domain/service/metrics';
import { joined, STACK_NAME, templateResources } from '../../../../../testkit/stack';
import { sharedStackTemplate } from '../../../../../testkit/synth-server';

const template = await sharedStackTemplate({ monitoring: 'detailed' });
const { ofType, logicalIdOf } = templateResources(template);
const STACK = STACK_NAME;

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
