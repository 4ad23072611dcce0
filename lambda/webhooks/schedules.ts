/**
 * The webhooks' timers on AWS (docs/design.md#webhooks): a wake-up due within the run is waited for in the run; a
 * later one is an EventBridge Scheduler one-time schedule that invokes the function with the endpoint's id, and
 * deletes itself once it has. Nothing runs per minute or per vendor: a schedule exists only for an endpoint with
 * a retry (or a settling change) due, or held by a dispatch (the lease's guard, deleted when it lets go).
 */
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import type { WebhookEndpoint } from './endpoint';

/** A wake-up due this soon is waited for in the run rather than scheduled. */
export const IN_RUN_WAIT_MS = 20_000;

/** Where the schedules go, and what they invoke with which role. */
export interface ScheduleTarget {
  readonly client: Pick<SchedulerClient, 'send'>;
  readonly group: string;
  readonly roleArn: string;
  /** The function to invoke (the running one's ARN). */
  readonly functionArn: string;
}

/** `at(…)` of EventBridge Scheduler: UTC, to the second (it fires within that minute). */
const atExpression = (ms: number) =>
  `at(${new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(0, 19)})`;

/** A wake-up's schedule name: by the endpoint and the second, so that the same wake-up asked twice is one. */
const scheduleName = (endpointId: string, at: number) => `${endpointId}-${Math.ceil(at / 1000)}`;

/**
 * Wakes an endpoint at `at` through a one-time schedule named by the endpoint and the time, so that the same
 * wake-up asked twice is one schedule.
 */
export async function scheduleWake(
  target: ScheduleTarget,
  endpoint: Pick<WebhookEndpoint, 'endpointId'>,
  at: number,
): Promise<void> {
  try {
    await target.client.send(
      new CreateScheduleCommand({
        Name: scheduleName(endpoint.endpointId, at),
        GroupName: target.group,
        ScheduleExpression: atExpression(at),
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: {
          Arn: target.functionArn,
          RoleArn: target.roleArn,
          Input: JSON.stringify({ endpointId: endpoint.endpointId }),
          RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3_600 },
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConflictException)) throw error;
  }
}

/** Deletes the wake-up `scheduleWake` made for `at` (a lease's guard, once the lease is let go); gone already is fine. */
export async function cancelWake(
  target: Pick<ScheduleTarget, 'client' | 'group'>,
  endpoint: Pick<WebhookEndpoint, 'endpointId'>,
  at: number,
): Promise<void> {
  try {
    await target.client.send(
      new DeleteScheduleCommand({ Name: scheduleName(endpoint.endpointId, at), GroupName: target.group }),
    );
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}
