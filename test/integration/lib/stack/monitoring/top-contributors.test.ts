/**
 * The Contributor Insights rules (`lib/stack/monitoring/top-contributors.ts`), from the template of a detailed
 * deployment: five, enabled, each counting the lines it should — checked against access log lines of the access log's
 * format and the very line the listing prints when it serves a page.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it, jest } from '@jest/globals';
import { SERVICE_NAME } from '../../../../../lambda/domain/service/limits';
import { ACCESS_LOG_FORMAT } from '../../../../../lib/stack/rest-api';
import { recordServedEmptyPage } from '../../../../../testkit/listing';
import { joined, STACK_NAME, templateResources } from '../../../../../testkit/stack';
import { sharedStackTemplate } from '../../../../../testkit/synth-server';

const template = await sharedStackTemplate({ monitoring: 'detailed' });
const { ofType, logicalIdOf } = templateResources(template);
const STACK = STACK_NAME;

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
      recordServedEmptyPage(logger, { readUnits: 1.5, foreignItems: 0 });
    } finally {
      write.mockRestore();
    }
    const [line] = printed.map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(counts(rule?.body, line as object)).toBe(true);
    expect(line?.[String(rule?.body.Contribution.ValueOf).replace('$.', '')]).toBe(1.5);
    expect(line?.[String(rule?.body.Contribution.Keys[0]).replace('$.', '')]).toBe('acme');
  });
});
