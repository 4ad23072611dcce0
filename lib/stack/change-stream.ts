import {
  type Duration,
  type aws_dynamodb as dynamodb,
  aws_lambda as lambda,
  aws_lambda_event_sources as sources,
  type aws_sqs as sqs,
  Validations,
} from 'aws-cdk-lib';
import { ITEM } from '../../lambda/domain/schema/tables';

/**
 * Wakes a function with the vacancies table's changes (docs/design.md#webhooks, #feeds): its stream, filtered to the
 * writes that record a change (every write of a vacancy does; a purge's removal does not), in batches of up to 100
 * records or `batchingWindow` — bisected on error, each vendor's failure reported on its own
 * (`ReportBatchItemFailures`), retried 5 times, what still fails kept in `deadLetters`. An idle vendor has no stream
 * record, hence no invocation.
 */
export function subscribeToChanges(
  fn: lambda.Function,
  vacancies: dynamodb.Table,
  deadLetters: sqs.Queue,
  batchingWindow: Duration,
): void {
  fn.addEventSource(
    new sources.DynamoEventSource(vacancies, {
      startingPosition: lambda.StartingPosition.LATEST,
      batchSize: 100,
      maxBatchingWindow: batchingWindow,
      bisectBatchOnError: true,
      retryAttempts: 5,
      reportBatchItemFailures: true,
      onFailure: new sources.SqsDlq(deadLetters),
      filters: [
        lambda.FilterCriteria.filter({
          eventName: lambda.FilterRule.or('INSERT', 'MODIFY'),
          dynamodb: { NewImage: { [ITEM.change]: { B: lambda.FilterRule.exists() } } },
        }),
      ],
    }),
  );
  // The stream's statements go to the role's default policy (with tracing off, nothing else acknowledges `*` there).
  Validations.of(fn.role ?? fn).acknowledge({
    id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
    reason:
      'dynamodb:ListStreams, which the stream event source needs, and X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions: "*" is their only resource.',
  });
}
