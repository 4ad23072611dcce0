import { Aws, aws_cloudwatch as cloudwatch, type aws_logs as logs, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { LISTING_SERVED, type ListingServedLog } from '../../../lambda/domain/service/log-fields';
import type { AccessLogField } from '../rest-api';
import { PERIOD } from './service-metrics';

/** A Contributor Insights rule of the service: which log, ranked by what, over which lines. */
interface ContributorRule {
  /** What the dashboard calls it. */
  readonly title: string;
  readonly log: 'access' | 'listing';
  /** The field that names a contributor. */
  readonly key: string;
  /** Ranked by the sum of this field; by the number of lines when absent. */
  readonly sumOf?: string;
  /** Contributor Insights filters (an AND of them), in its rule syntax. */
  readonly filters: readonly Record<string, unknown>[];
}

const access = (field: AccessLogField) => `$.${field}`;
const listing = (field: keyof ListingServedLog) => `$.${field}`;
/** API Gateway's value for a context variable that was not set: here, no vendor was authorized. */
const NO_VENDOR = '-';

/**
 * The per-vendor view (docs/operating.md#top-vendors): Contributor Insights rules on the access log and on the
 * listing's log lines, so that a vendor is a contributor of a rule — free of per-value cost — rather than a
 * metric dimension, each value of which would be a metric billed every month.
 */
export const CONTRIBUTOR_RULES = {
  'requests-by-vendor': {
    title: 'Top vendors by requests',
    log: 'access',
    key: access('vendorId'),
    filters: [{ Match: access('vendorId'), NotIn: [NO_VENDOR] }],
  },
  'read-units-by-vendor': {
    title: 'Top vendors by DynamoDB read units',
    log: 'listing',
    key: listing('vendorId'),
    sumOf: listing('readUnits'),
    filters: [{ Match: '$.message', In: [LISTING_SERVED] }],
  },
  'throttled-by-vendor': {
    title: 'Top vendors by 429 answers ("-": throttled before a vendor was known)',
    log: 'access',
    key: access('vendorId'),
    filters: [{ Match: access('status'), In: ['429'] }],
  },
  'client-errors-by-vendor': {
    title: 'Top vendors by 4XX answers',
    log: 'access',
    key: access('vendorId'),
    filters: [
      { Match: access('status'), StartsWith: ['4'] },
      { Match: access('vendorId'), NotIn: [NO_VENDOR] },
    ],
  },
  'refused-keys-by-ip': {
    title: 'Top source IPs by 401 answers (unknown, revoked or malformed keys)',
    log: 'access',
    key: access('ip'),
    filters: [{ Match: access('status'), In: ['401'] }],
  },
} as const satisfies Record<string, ContributorRule>;

/** A rule, by its short name. */
export type ContributorRuleId = keyof typeof CONTRIBUTOR_RULES;

/** The series Contributor Insights offers for a rule (`INSIGHT_RULE_METRIC`). */
export type ContributorSeries = 'UniqueContributors' | 'SampleCount' | 'Sum' | 'MaxContributorValue';

/** What the rules read. */
export interface TopContributorsProps {
  /** Prefix of the rule names (unique in the account and region): the stack's name. */
  readonly namePrefix: string;
  readonly accessLogs: logs.ILogGroup;
  readonly listingLogs: logs.ILogGroup;
}

/** A dashboard widget of a rule's top ten contributors over time; CDK has no such widget of its own. */
export class ContributorsWidget extends cloudwatch.ConcreteWidget {
  constructor(
    private readonly ruleName: string,
    private readonly title: string,
    width = 8,
    height = 6,
  ) {
    super(width, height);
  }

  toJson(): unknown[] {
    return [
      {
        type: 'metric',
        width: this.width,
        height: this.height,
        x: this.x,
        y: this.y,
        properties: {
          title: this.title,
          region: Aws.REGION,
          view: 'timeSeries',
          stacked: false,
          period: PERIOD.toSeconds(),
          legend: { position: 'bottom' },
          insightRule: { maxContributorCount: 10, orderBy: 'Sum', ruleName: this.ruleName },
        },
      },
    ];
  }
}

/** The service's Contributor Insights rules. */
export class TopContributors extends Construct {
  /** Each rule's name, by its short name. */
  public readonly ruleNames: Readonly<Record<ContributorRuleId, string>>;

  constructor(scope: Construct, id: string, props: TopContributorsProps) {
    super(scope, id);
    const logGroups = { access: props.accessLogs, listing: props.listingLogs };
    const names = {} as Record<ContributorRuleId, string>;
    for (const [ruleId, rule] of Object.entries(CONTRIBUTOR_RULES) as [
      ContributorRuleId,
      ContributorRule,
    ][]) {
      const ruleName = `${props.namePrefix}-${ruleId}`;
      new cloudwatch.CfnInsightRule(this, ruleId, {
        ruleName,
        ruleState: 'ENABLED',
        ruleBody: Stack.of(this).toJsonString({
          Schema: { Name: 'CloudWatchLogRule', Version: 1 },
          LogGroupNames: [logGroups[rule.log].logGroupName],
          LogFormat: 'JSON',
          Contribution: {
            Keys: [rule.key],
            ...(rule.sumOf && { ValueOf: rule.sumOf }),
            Filters: rule.filters,
          },
          AggregateOn: rule.sumOf ? 'Sum' : 'Count',
        }),
      });
      names[ruleId] = ruleName;
    }
    this.ruleNames = names;
  }

  /** A widget of a rule's top contributors. */
  widget(ruleId: ContributorRuleId, width?: number): ContributorsWidget {
    return new ContributorsWidget(this.ruleNames[ruleId], CONTRIBUTOR_RULES[ruleId].title, width);
  }

  /** A series of a rule, as a metric for graphs and alarms. */
  metric(ruleId: ContributorRuleId, series: ContributorSeries, label: string) {
    return new cloudwatch.MathExpression({
      expression: `INSIGHT_RULE_METRIC('${this.ruleNames[ruleId]}', '${series}')`,
      usingMetrics: {},
      label,
      period: PERIOD,
    });
  }
}
