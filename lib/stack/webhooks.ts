import {
  Duration,
  type aws_dynamodb as dynamodb,
  aws_iam as iam,
  type aws_lambda as lambda,
  Stack,
  aws_scheduler as scheduler,
  type aws_sqs as sqs,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { WEBHOOK_SCHEDULE_VARIABLES } from '../../lambda/domain/settings/environment';
import { subscribeToChanges } from './change-stream';
import { deadLetterQueue } from './dead-letters';
import { acknowledgeWildcardResources } from './nag';

/** What the webhook dispatch is wired to. */
export interface WebhookDispatchProps {
  /** The webhooks function (`lambda/functions/webhooks/handler.ts`). */
  readonly function: lambda.Function;
  /** The vacancies table, whose stream wakes the function. */
  readonly vacancies: dynamodb.Table;
  /** The schedule group's name: unique in the account and region. */
  readonly scheduleGroupName: string;
}

/**
 * What wakes the webhook dispatch on AWS (docs/design.md#webhooks), nothing on a timer: the vacancies table's stream,
 * filtered to the writes that record a change (a new change key), in batches of up to 100 records or a second —
 * bisected on error, each vendor's failure reported on its own (`ReportBatchItemFailures`), what still fails kept
 * in a queue; and the one-time schedules the function makes for its retries, in a group of their own, run by a role
 * that may invoke this one function. An idle vendor has no stream record, hence no invocation and no read.
 */
export class WebhookDispatch extends Construct {
  public readonly deadLetters: sqs.Queue;
  public readonly scheduleGroup: scheduler.CfnScheduleGroup;

  constructor(scope: Construct, id: string, props: WebhookDispatchProps) {
    super(scope, id);
    const fn = props.function;

    this.deadLetters = deadLetterQueue(this, 'DeadLetters', 'the webhooks stream');
    subscribeToChanges(fn, props.vacancies, this.deadLetters, Duration.seconds(1));

    this.scheduleGroup = new scheduler.CfnScheduleGroup(this, 'Retries', { name: props.scheduleGroupName });
    // A role of its own that may invoke this one function, nothing else.
    const role = new iam.Role(this, 'SchedulerRole', {
      description: 'Vendor Vacancy API: lets EventBridge Scheduler wake the webhook dispatch, nothing else',
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    });
    role.addToPolicy(
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }),
    );
    // The function makes its one-time schedules in its group (and deletes a lease's guard when it lets go), and
    // hands them that role.
    const schedules = Stack.of(this).formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${props.scheduleGroupName}/*`,
    });
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
        resources: [schedules],
      }),
    );
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['iam:PassRole'], resources: [role.roleArn] }));
    // What `fn.addToRolePolicy` adds is a policy of the function's own (`createNewPoliciesWithAddToRolePolicy`).
    acknowledgeWildcardResources(
      fn,
      [schedules],
      'The function names each one-time schedule at run time (by endpoint and time): it may create and delete them in its own group only.',
    );
    fn.addEnvironment(WEBHOOK_SCHEDULE_VARIABLES.group, props.scheduleGroupName);
    fn.addEnvironment(WEBHOOK_SCHEDULE_VARIABLES.roleArn, role.roleArn);
    // A schedule retries on its own; an invocation it made is not retried again by Lambda.
    fn.configureAsyncInvoke({ retryAttempts: 0 });
  }
}
