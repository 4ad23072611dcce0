/**
 * What a deployment tells the tools, part one: the names of the stack's CloudFormation outputs — the stack writes
 * them, the ops CLI finds the tables, the service time zone and the usage plans of the rate tiers through them
 * (`--stack`). Part two, the local server's own record, is `local-deployment.ts`.
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
} as const;

/** The value of the `RateTiers` output: the default tier, and each tier's usage plan id. */
export interface RateTiersOutput {
  readonly default: string;
  readonly plans: Readonly<Record<string, string>>;
}
