import {
  Duration,
  aws_iam as iam,
  type aws_lambda as lambda,
  Stack,
  aws_scheduler as scheduler,
  TimeZone,
  aws_scheduler_targets as targets,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';

/** What the expiry job's schedule is built from. */
export interface ExpiryScheduleProps {
  readonly function: lambda.IFunction;
  /** The service time zone: a day begins at its midnight. */
  readonly timeZone: string;
}

/**
 * Runs the expiry job (docs/design.md#expiry) at five past every hour of the service time zone — EventBridge
 * Scheduler takes a time zone, daylight saving included — so an expiry is recorded within fifteen minutes after its
 * day begins, and a run that could not finish (its time budget, DynamoDB down) is followed within the hour.
 */
export class ExpirySchedule extends Construct {
  public readonly schedule: scheduler.Schedule;

  constructor(scope: Construct, id: string, props: ExpiryScheduleProps) {
    super(scope, id);
    // A role of its own that may invoke this one function, nothing else: the target's default grant would add its
    // versions and aliases (`<arn>:*`), which nothing here uses. Handed to the target without policy updates.
    const role = new iam.Role(this, 'Role', {
      description: 'Vendor Vacancy API: lets EventBridge Scheduler run the expiry job, nothing else',
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    });
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [props.function.functionArn],
      }),
    );
    this.schedule = new scheduler.Schedule(this, 'Default', {
      description: 'Vendor Vacancy API: record expired vacancies (hourly, in the service time zone)',
      schedule: scheduler.ScheduleExpression.cron({
        minute: '5',
        hour: '*',
        timeZone: TimeZone.of(props.timeZone),
      }),
      // A run missed is made up by the next one: no retries that would pile up behind it.
      target: new targets.LambdaInvoke(props.function, {
        role: role.withoutPolicyUpdates(),
        retryAttempts: 0,
        maxEventAge: Duration.minutes(30),
      }),
    });
  }
}
