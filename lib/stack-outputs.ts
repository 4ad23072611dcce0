/** Names of the stack's CloudFormation outputs; the ops CLI finds the tables and the service time zone
 * through them (`--stack`). */
export const STACK_OUTPUTS = {
  apiUrl: 'ApiUrl',
  listingUrl: 'ListingUrl',
  stageName: 'StageName',
  vacanciesTable: 'VacanciesTableName',
  vendorsTable: 'VendorsTableName',
  alarmTopic: 'AlarmTopicArn',
  serviceTimeZone: 'ServiceTimeZone',
} as const;
