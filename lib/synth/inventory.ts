/**
 * What a deployment is made of (docs/operating.md "What gets deployed"), counted from its synthesized template for each
 * monitoring profile: the table there is this module's output (`npm run inventory` prints it; a test holds the docs
 * to it), so the docs cannot say "four functions" of a stack that has five.
 */
import { MONITORING_PROFILES, type MonitoringProfile } from '../settings';
import { type CfnTemplate, synthesizedTemplate } from './template';

/** One row: what, and how many of it each profile deploys. */
export interface InventoryRow {
  readonly what: string;
  readonly counts: Readonly<Record<MonitoringProfile, number>>;
}

/** The rows, in the docs' order: the resource types an operator asks about, each counted by `count`. */
const ROWS: readonly { what: string; count: (template: CfnTemplate) => number }[] = [
  { what: 'DynamoDB tables', count: (t) => count(t, 'AWS::DynamoDB::Table') },
  {
    what: "the service's Lambda functions",
    count: (t) => count(t, 'AWS::Lambda::Function', (id) => id.startsWith('Functions')),
  },
  {
    what: "CDK's own Lambda functions (run at deployment: the inbox's notifications, the feeds' 404 object)",
    count: (t) => count(t, 'AWS::Lambda::Function', (id) => !id.startsWith('Functions')),
  },
  { what: 'EventBridge Scheduler recurring schedules', count: (t) => count(t, 'AWS::Scheduler::Schedule') },
  { what: 'EventBridge Scheduler schedule groups', count: (t) => count(t, 'AWS::Scheduler::ScheduleGroup') },
  {
    what: 'DynamoDB stream subscriptions (event source mappings)',
    count: (t) => count(t, 'AWS::Lambda::EventSourceMapping'),
  },
  { what: 'S3 buckets', count: (t) => count(t, 'AWS::S3::Bucket') },
  {
    what: 'CloudFront distributions (the feeds)',
    count: (t) => count(t, 'AWS::CloudFront::Distribution'),
  },
  {
    what: 'CloudFront Functions (the feeds: the encoding, the 404)',
    count: (t) => count(t, 'AWS::CloudFront::Function'),
  },
  { what: 'SQS queues (dead letters)', count: (t) => count(t, 'AWS::SQS::Queue') },
  { what: 'REST APIs', count: (t) => count(t, 'AWS::ApiGateway::RestApi') },
  { what: 'usage plans (rate tiers)', count: (t) => count(t, 'AWS::ApiGateway::UsagePlan') },
  {
    what: 'gateway responses in the error envelope',
    count: (t) => count(t, 'AWS::ApiGateway::GatewayResponse'),
  },
  { what: 'CloudWatch alarms', count: (t) => count(t, 'AWS::CloudWatch::Alarm') },
  { what: 'SNS topics (alarms)', count: (t) => count(t, 'AWS::SNS::Topic') },
  { what: 'log metric filters', count: (t) => count(t, 'AWS::Logs::MetricFilter') },
  { what: 'CloudWatch dashboards', count: (t) => count(t, 'AWS::CloudWatch::Dashboard') },
  { what: 'Contributor Insights rules', count: (t) => count(t, 'AWS::CloudWatch::InsightRule') },
  { what: 'log groups', count: (t) => count(t, 'AWS::Logs::LogGroup') },
  { what: 'IAM roles', count: (t) => count(t, 'AWS::IAM::Role') },
];

/** How many resources of `type` the template has (whose logical id passes `which`). */
function count(
  template: CfnTemplate,
  type: string,
  which: (logicalId: string) => boolean = () => true,
): number {
  return Object.entries(template.Resources).filter(([id, resource]) => resource.Type === type && which(id))
    .length;
}

/** Each row's count in each monitoring profile's template (the default settings otherwise). */
export function deployedInventory(
  templates: Readonly<Record<MonitoringProfile, CfnTemplate>> = Object.fromEntries(
    MONITORING_PROFILES.map((monitoring) => [monitoring, synthesizedTemplate({ monitoring })]),
  ) as Record<MonitoringProfile, CfnTemplate>,
): InventoryRow[] {
  return ROWS.map(({ what, count: of }) => ({
    what,
    counts: Object.fromEntries(
      MONITORING_PROFILES.map((profile) => [profile, of(templates[profile])]),
    ) as Record<MonitoringProfile, number>,
  }));
}

/** The rows as the Markdown table docs/operating.md shows, one column per profile. */
export function inventoryTable(rows: readonly InventoryRow[]): string {
  return [
    `| what | ${MONITORING_PROFILES.map((profile) => `\`${profile}\``).join(' | ')} |`,
    `|---|${MONITORING_PROFILES.map(() => '---:').join('|')}|`,
    ...rows.map(
      ({ what, counts }) =>
        `| ${what} | ${MONITORING_PROFILES.map((profile) => counts[profile]).join(' | ')} |`,
    ),
  ].join('\n');
}
