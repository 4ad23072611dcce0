/** Names of the stack's CloudFormation outputs; the ops CLI finds the tables through them (`--stack`). */
export const STACK_OUTPUTS = {
  apiUrl: 'ApiUrl',
  listingUrl: 'ListingUrl',
  stageName: 'StageName',
  vacanciesTable: 'VacanciesTableName',
  vendorsTable: 'VendorsTableName',
  alarmTopic: 'AlarmTopicArn',
} as const;
