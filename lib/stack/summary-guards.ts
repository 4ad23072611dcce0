import {
  Aws,
  aws_iam as iam,
  type aws_lambda as lambda,
  Stack,
  aws_scheduler as scheduler,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { SUMMARY_GUARD_VARIABLES } from '../../lambda/domain/settings/environment';
import { acknowledgeWildcardResources } from './nag';

/** What the summaries' guards are wired to. */
export interface SummaryGuardsProps {
  /** The function a guard invokes: the expiry function, which recovers the one vendor it is given. */
  readonly recovery: lambda.Function;
  /** The functions that write vacancies, and so take summary leases and arm their guards. */
  readonly writers: readonly lambda.Function[];
  /** The schedule group's name: unique in the account and region. */
  readonly scheduleGroupName: string;
}

/**
 * The summaries' guards on AWS (docs/design.md#a-kill-timeline): one-time schedules the writers make with each lease
 * and delete when they let go, in a group of their own, run by a role that may invoke the expiry function and
 * nothing else. Nothing here runs on a timer: while nobody writes, there is no schedule, and nothing is billed.
 */
export class SummaryGuards extends Construct {
  public readonly scheduleGroup: scheduler.CfnScheduleGroup;
  public readonly scheduleGroupName: string;
  public readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: SummaryGuardsProps) {
    super(scope, id);
    this.scheduleGroupName = props.scheduleGroupName;
    this.scheduleGroup = new scheduler.CfnScheduleGroup(this, 'Group', { name: props.scheduleGroupName });
    this.role = new iam.Role(this, 'SchedulerRole', {
      description: "Vendor Vacancy API: lets EventBridge Scheduler run a summary's recovery, nothing else",
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    });
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [props.recovery.functionArn],
      }),
    );
    // Written with the pseudo-parameters: one template for every region.
    const schedules = `arn:${Aws.PARTITION}:scheduler:${Aws.REGION}:${Aws.ACCOUNT_ID}:schedule/${props.scheduleGroupName}/*`;
    for (const fn of props.writers) {
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
          resources: [schedules],
        }),
      );
      fn.addToRolePolicy(
        new iam.PolicyStatement({ actions: ['iam:PassRole'], resources: [this.role.roleArn] }),
      );
      acknowledgeWildcardResources(
        fn,
        [schedules],
        "A writer names each summary's guard at run time (by vendor and time): it may create and delete them in their own group only.",
      );
      fn.addEnvironment(SUMMARY_GUARD_VARIABLES.group, props.scheduleGroupName);
      fn.addEnvironment(SUMMARY_GUARD_VARIABLES.roleArn, this.role.roleArn);
      // The recovery function names itself from its invocation (its own ARN here would be a circular reference).
      if (fn !== props.recovery)
        fn.addEnvironment(SUMMARY_GUARD_VARIABLES.functionArn, props.recovery.functionArn);
    }
  }
}
