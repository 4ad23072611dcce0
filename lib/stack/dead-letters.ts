import { Duration, aws_sqs as sqs, Validations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/**
 * A queue that keeps what a function could not handle (the inbox's failed invocations, the webhooks stream's failed
 * batches) for 14 days: encrypted, TLS only; it is itself the last stop, so it has no dead-letter queue of its own.
 */
export function deadLetterQueue(scope: Construct, id: string, whose: string): sqs.Queue {
  const queue = new sqs.Queue(scope, id, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: `This queue is the dead-letter destination of ${whose}: it has none of its own.`,
  });
  return queue;
}
