/**
 * EventBridge Scheduler one-time schedules, as a service's timers that outlive a run (docs/design.md#a-kill-timeline):
 * made at a time, named so that the same timer asked twice is one schedule, deleting themselves once they have
 * fired, and deleted early when no longer needed.
 */
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';

/** Where schedules go, and what they invoke with which role. */
export interface ScheduleTarget {
  readonly client: Pick<SchedulerClient, 'send'>;
  readonly group: string;
  readonly roleArn: string;
  /** The function a schedule invokes. */
  readonly functionArn: string;
}

/** `at(…)` of EventBridge Scheduler: UTC, to the second (it fires within that minute). */
const atExpression = (ms: number) =>
  `at(${new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(0, 19)})`;

/**
 * A schedule named `name` that invokes the target's function with `input` at `at` (ms), once, retried up to
 * `maxRetries` times within an hour; one of that name already there (asked twice) is that one.
 */
export async function createOneTimeSchedule(
  target: ScheduleTarget,
  name: string,
  at: number,
  input: unknown,
  maxRetries: number,
): Promise<void> {
  try {
    await target.client.send(
      new CreateScheduleCommand({
        Name: name,
        GroupName: target.group,
        ScheduleExpression: atExpression(at),
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: {
          Arn: target.functionArn,
          RoleArn: target.roleArn,
          Input: JSON.stringify(input),
          RetryPolicy: { MaximumRetryAttempts: maxRetries, MaximumEventAgeInSeconds: 3_600 },
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConflictException)) throw error;
  }
}

/** Deletes the schedule named `name`; one already gone (fired, or deleted) is fine. */
export async function deleteOneTimeSchedule(
  target: Pick<ScheduleTarget, 'client' | 'group'>,
  name: string,
): Promise<void> {
  try {
    await target.client.send(new DeleteScheduleCommand({ Name: name, GroupName: target.group }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}
