import {
  aws_cloudwatch_actions as actions,
  aws_cloudwatch as cloudwatch,
  aws_kms as kms,
  aws_sns as sns,
  aws_sns_subscriptions as subscriptions,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { ServiceSettings } from '../../settings';
import { PERIOD, type ServiceMetrics } from './service-metrics';
import type { TopContributors } from './top-contributors';

/** What the alarms watch. */
export interface ServiceAlarmsProps {
  readonly settings: ServiceSettings;
  readonly metrics: ServiceMetrics;
  /** The top-vendor rules, when the profile is `detailed`; their alarm comes with them. */
  readonly contributors: TopContributors | undefined;
}

/** An alarm: a metric over a threshold for some five-minute periods in a row. */
interface AlarmDefinition {
  /** Its description, which the notification carries: what happened, in a line. */
  readonly description: string;
  readonly metric: cloudwatch.IMetric;
  readonly threshold: number;
  /** At or over the threshold, rather than over it. */
  readonly orOver?: boolean;
  /** Periods in a row; 1 when absent. */
  readonly periods?: number;
  /** A percentile over too few requests to mean much does not change the alarm's state. */
  readonly percentile?: boolean;
}

/** Distinct vendors throttled in one period that mean the stage, not one vendor, is the limit. */
export const THROTTLED_VENDORS_ALARM = 3;
/** Share of the stage's rate limit, averaged over a period, that warns before the stage throttles. */
export const STAGE_CEILING_ALARM_PERCENT = 80;

/**
 * The alarms (docs/operating.md#alarms): what a vendor would notice or an operator must act on, each with its
 * one-line runbook in that table. All notify one SNS topic (encrypted, TLS only), with an e-mail subscription if
 * configured. The topic is this construct's `Default` child: its logical id, and so its ARN and subscriptions,
 * are the first version's.
 */
export class ServiceAlarms extends Construct {
  public readonly topic: sns.Topic;
  public readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, { settings, metrics, contributors }: ServiceAlarmsProps) {
    super(scope, id);
    // An alarm on a Contributor Insights rule names the rule: create the rules first.
    if (contributors) this.node.addDependency(contributors);
    this.topic = new sns.Topic(this, 'Default', {
      displayName: 'Vendor Vacancy API alarms',
      enforceSSL: true,
      masterKey: kms.Alias.fromAliasName(this, 'SnsKey', 'alias/aws/sns'),
    });
    if (settings.alarmEmail)
      this.topic.addSubscription(new subscriptions.EmailSubscription(settings.alarmEmail));
    const notify = new actions.SnsAction(this.topic);

    const requests = metrics.requests();
    // Every profile's: what protects data, tenants and availability, on metrics AWS publishes for free (and a log
    // metric filter where there is none: key checks failing, items of another vendor).
    const definitions: Record<string, AlarmDefinition> = {
      ServerErrorRate: {
        description: 'More than 1% of requests answered 5XX, two periods of 5 minutes in a row',
        metric: metrics.serverErrorShare(),
        threshold: 0.01,
        periods: 2,
      },
      LatencyP99: {
        description: "The API's p99 latency above 1 s, three periods of 5 minutes in a row",
        metric: metrics.latency('p99'),
        threshold: 1_000,
        periods: 3,
        percentile: true,
      },
      AuthorizerFailing: {
        description:
          'Keys could not be checked (not refusals: the authorizer failed, timed out or could not run): those vendors got 503s',
        metric: metrics.keyChecksFailed,
        threshold: 0,
      },
      ExpiryFailing: {
        description:
          'The expiry job failed: expired vacancies may still be counted as active, so listings count them (slower) until a run succeeds',
        metric: metrics.lambda('expiry', 'Errors', 'Sum'),
        threshold: 0,
      },
      ImportFailing: {
        description:
          'A file of the inbox could not be imported (it is in failed/ or still in incoming/, or in done/ with every record rejected; its report says why): the vacancies it carries are not served',
        metric: metrics.lambda('inbox', 'Errors', 'Sum'),
        threshold: 0,
      },
      WebhookEndpointDisabled: {
        description:
          'A webhook endpoint was disabled (its retries ran out, or it answered 410), or the webhook dispatch failed: "vacancy-admin webhook list" says which and why',
        metric: metrics.lambda('webhooks', 'Errors', 'Sum'),
        threshold: 0,
      },
      IsolationBreach: {
        description:
          "The active index named another vendor's vacancy in a vendor's listing (left out of the page): a bug or damaged data, never expected",
        metric: metrics.foreignItems,
        threshold: 0,
      },
      DynamoDBThrottling: {
        description: 'DynamoDB throttled reads of the API',
        metric: metrics.throttledReads(),
        threshold: 0,
      },
    };

    // The detailed profile's: a misconfigured usage key (its 500s are in ServerErrorRate anyway), throttled
    // vendors (a Contributor Insights rule), and the stage's ceiling.
    if (contributors && metrics.invalidUsageKeys) {
      Object.assign(definitions, {
        UsageKeyMisconfigured: {
          description:
            'A usage key is in no usage plan: its requests answer 500. A vendor\'s: run "vacancy-admin --stack <stack> vendor sync-usage-keys"; a public agent endpoint\'s: "agent remove" it, then "agent add" a new one.',
          metric: metrics.invalidUsageKeys,
          threshold: 0,
        },
        ThrottledVendors: {
          description: `${THROTTLED_VENDORS_ALARM} or more vendors got 429s within 5 minutes: the stage's limit, not a tier, may be the ceiling`,
          metric: contributors.metric('throttled-by-vendor', 'UniqueContributors', 'Vendors throttled'),
          threshold: THROTTLED_VENDORS_ALARM,
          orOver: true,
        },
        StageNearCeiling: {
          description: `Requests averaged ${STAGE_CEILING_ALARM_PERCENT}% or more of the stage's rate limit (${settings.throttlingRateLimit}/s) over 5 minutes`,
          metric: new cloudwatch.MathExpression({
            label: "Requests/s, % of the stage's rate limit",
            expression: `100 * requests / PERIOD(requests) / ${settings.throttlingRateLimit}`,
            usingMetrics: { requests },
            period: PERIOD,
          }),
          threshold: STAGE_CEILING_ALARM_PERCENT,
          orOver: true,
        },
      } satisfies Record<string, AlarmDefinition>);
    }

    this.alarms = Object.entries(definitions).map(([alarmId, definition]) => {
      const alarm = new cloudwatch.Alarm(this, alarmId, {
        alarmName: `${settings.stackName}-${alarmId}`,
        alarmDescription: definition.description,
        metric: definition.metric,
        threshold: definition.threshold,
        evaluationPeriods: definition.periods ?? 1,
        comparisonOperator: definition.orOver
          ? cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD
          : cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        ...(definition.percentile && { evaluateLowSampleCountPercentile: 'ignore' }),
      });
      alarm.addAlarmAction(notify);
      return alarm;
    });
  }
}
