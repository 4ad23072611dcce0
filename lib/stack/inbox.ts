import {
  Duration,
  aws_lambda_destinations as destinations,
  aws_iam as iam,
  aws_lambda as lambda,
  type RemovalPolicy,
  Stack,
  aws_s3 as s3,
  aws_s3_notifications as s3n,
  type aws_sqs as sqs,
  Validations,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { INBOX_FOLDERS } from '../../lambda/functions/inbox/layout';
import { deadLetterQueue } from './dead-letters';
import { acknowledgeWildcardResources } from './nag';
import { privateBucket } from './private-bucket';

/** What the inbox is built from. */
export interface InboxProps {
  /** The import function (`lambda/functions/inbox/handler.ts`); the inbox grants it its objects. */
  readonly function: lambda.IFunction & { readonly role?: iam.IRole | undefined };
  readonly removalPolicy: RemovalPolicy;
}

/** The id CDK gives its handler of bucket notifications, a singleton of the stack. */
const NOTIFICATIONS_HANDLER = 'BucketNotificationsHandler050a0587b7544547bf325f094a3db834';

/** Days a handled file, and a report, stay in the bucket. */
export const INBOX_RETENTION_DAYS = { done: 30, reports: 90 } as const;

/**
 * The inbox (docs/operating.md#the-inbox): a private bucket — S3-managed encryption, TLS only, no public access, not
 * versioned (a file moves from `incoming/` by a copy and a delete, and the platform keeps its exports: versions would
 * only keep every file twice) — whose objects created under `incoming/` invoke the import function. S3 invokes it
 * asynchronously: retried twice on failure, then the event goes to the dead-letter queue, which nothing polls (no
 * cost while idle; the `ImportFailing` alarm watches the function's errors). Handled files and reports expire after
 * `INBOX_RETENTION_DAYS`; `failed/` and `held/` wait for a person.
 */
export class Inbox extends Construct {
  public readonly bucket: s3.Bucket;
  public readonly deadLetters: sqs.Queue;

  constructor(scope: Construct, id: string, props: InboxProps) {
    super(scope, id);
    this.bucket = privateBucket(this, 'Bucket', {
      removalPolicy: props.removalPolicy,
      lifecycleRules: [
        { prefix: INBOX_FOLDERS.done, expiration: Duration.days(INBOX_RETENTION_DAYS.done) },
        { prefix: INBOX_FOLDERS.reports, expiration: Duration.days(INBOX_RETENTION_DAYS.reports) },
      ],
      whyNoAccessLogs:
        'Server access logs of the inbox would record only the platform and the import function; each file has its report under reports/ and a log line of the function.',
    });

    this.deadLetters = deadLetterQueue(this, 'DeadLetters', 'the inbox function');
    new lambda.EventInvokeConfig(this, 'Invocations', {
      function: props.function,
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      onFailure: new destinations.SqsDestination(this.deadLetters),
    });

    this.bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(props.function), {
      prefix: INBOX_FOLDERS.incoming,
    });

    // Exactly its objects: read what arrives, delete it once copied, write the other folders. And list the bucket:
    // without it S3 answers a read of a missing object 403, not 404, and a second delivery of an event (its file
    // already moved) could not be told from a denied read.
    const role = props.function.role as iam.IRole;
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.bucket.bucketArn] }),
    );
    const objects = (folder: string) => this.bucket.arnForObjects(`${folder}*`);
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:GetObject', 's3:DeleteObject'],
        resources: [objects(INBOX_FOLDERS.incoming)],
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:PutObject'],
        resources: [INBOX_FOLDERS.done, INBOX_FOLDERS.failed, INBOX_FOLDERS.held, INBOX_FOLDERS.reports].map(
          objects,
        ),
      }),
    );
    const stack = Stack.of(this);
    for (const folder of Object.values(INBOX_FOLDERS)) {
      acknowledgeWildcardResources(
        role,
        [objects(folder)],
        `The objects of ${folder} are files the platform names: the folder is the narrowest resource.`,
      );
    }
    // CDK's own function that sets the bucket's notifications (one per stack): it only writes its logs.
    const notifications = stack.node.tryFindChild(NOTIFICATIONS_HANDLER);
    if (notifications) {
      Validations.of(notifications).acknowledge({
        id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          "CDK's handler of bucket notifications (a custom resource run at deployment) writes its logs with the basic execution role; the stack does not build it.",
      });
    }
  }
}
