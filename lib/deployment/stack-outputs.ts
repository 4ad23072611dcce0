/**
 * What a deployment tells the tools, part one: the names of the stack's CloudFormation outputs — the stack writes
 * them, the ops CLI finds the tables, the service time zone, the usage plans of the rate tiers and the feeds' base
 * URL through them (`--stack`). Part two, the local server's own record, is `local-deployment.ts`.
 */
export const STACK_OUTPUTS = {
  apiUrl: 'ApiUrl',
  listingUrl: 'ListingUrl',
  stageUrl: 'StageUrl',
  domainTarget: 'DomainTarget',
  domainTargetHostedZoneId: 'DomainTargetHostedZoneId',
  stageName: 'StageName',
  vacanciesTable: 'VacanciesTableName',
  vendorsTable: 'VendorsTableName',
  alarmTopic: 'AlarmTopicArn',
  dashboardUrl: 'DashboardUrl',
  serviceTimeZone: 'ServiceTimeZone',
  rateTiers: 'RateTiers',
  inboxBucket: 'InboxBucket',
  webhookFunction: 'WebhookFunctionArn',
  summaryGuards: 'SummaryGuardSchedules',
  /**
   * The base of the feeds' URLs (`<base>/feeds/<token>/<file>`, docs/operating.md#feeds), without a trailing slash:
   * where the deployment serves them, or its custom domain for them. A stack without it serves no feeds.
   */
  feedBaseUrl: 'FeedBaseUrl',
  /** The bucket of the feeds' files: `feed remove` deletes a removed feed's files there. */
  feedBucket: 'FeedBucket',
  /** The feeds function: `feed add` and `vendor put|suspend|activate` ask it for the vendor's build at once. */
  feedFunction: 'FeedFunctionArn',
} as const;

/**
 * The value of the `SummaryGuardSchedules` output: where the CLI's writers put the guards of their summary leases
 * (docs/design.md#a-kill-timeline) — the schedule group, the role EventBridge Scheduler takes, the function it runs.
 */
export interface SummaryGuardsOutput {
  readonly group: string;
  readonly roleArn: string;
  readonly functionArn: string;
}

/** The value of the `RateTiers` output: the default tier, and each tier's usage plan id. */
export interface RateTiersOutput {
  readonly default: string;
  readonly plans: Readonly<Record<string, string>>;
}
