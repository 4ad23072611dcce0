/**
 * The summaries' guards on AWS (docs/design.md#a-kill-timeline): each an EventBridge Scheduler one-time schedule, made
 * when a writer takes a lease, deleted when it lets go cleanly, and deleting itself once it has fired — so nothing
 * runs, and nothing is billed, while nobody writes. A guard invokes the expiry function with the vendor
 * (`{ "recoverSummary": "<vendor>" }`), which runs `recoverSummary` for that vendor only.
 */
import { createHash } from 'node:crypto';
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { type Environment, SUMMARY_GUARD_VARIABLES } from '../config/environment';
import type { SummaryGuardTimer } from './summary-guard';

/** What a guard's firing asks of the expiry function. */
export interface RecoverSummaryEvent {
  readonly recoverSummary: string;
}

/** Whether an invocation of the expiry function is a guard's. */
export const isRecoverSummaryEvent = (event: unknown): event is RecoverSummaryEvent =>
  typeof (event as { recoverSummary?: unknown } | null)?.recoverSummary === 'string';

/** Where the guards go, and what they invoke with which role. */
export interface SummaryGuardTarget {
  readonly client: Pick<SchedulerClient, 'send'>;
  readonly group: string;
  readonly roleArn: string;
  /** The expiry function's ARN. */
  readonly functionArn: string;
}

/**
 * A guard's name: by the vendor (hashed: a schedule name takes letters, digits, `-`, `_` and `.`, 64 at most) and the
 * second, so that the same guard asked twice is one schedule.
 */
const guardName = (vendorId: string, at: number) =>
  `summary-${createHash('sha256').update(vendorId).digest('hex').slice(0, 32)}-${Math.ceil(at / 1000)}`;

/** `at(…)` of EventBridge Scheduler: UTC, to the second. */
const atExpression = (ms: number) =>
  `at(${new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(0, 19)})`;

/** The guards as one-time schedules of `target`. */
export function scheduledSummaryGuards(target: SummaryGuardTarget): SummaryGuardTimer {
  return {
    async arm(vendorId, at) {
      try {
        await target.client.send(
          new CreateScheduleCommand({
            Name: guardName(vendorId, at),
            GroupName: target.group,
            ScheduleExpression: atExpression(at),
            ScheduleExpressionTimezone: 'UTC',
            FlexibleTimeWindow: { Mode: 'OFF' },
            ActionAfterCompletion: 'DELETE',
            Target: {
              Arn: target.functionArn,
              RoleArn: target.roleArn,
              Input: JSON.stringify({ recoverSummary: vendorId } satisfies RecoverSummaryEvent),
              RetryPolicy: { MaximumRetryAttempts: 5, MaximumEventAgeInSeconds: 3_600 },
            },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConflictException)) throw error;
      }
    },
    async disarm(vendorId, at) {
      try {
        await target.client.send(
          new DeleteScheduleCommand({ Name: guardName(vendorId, at), GroupName: target.group }),
        );
      } catch (error) {
        if (!(error instanceof ResourceNotFoundException)) throw error;
      }
    },
  };
}

/**
 * The guards a function's environment names (`SUMMARY_GUARD_VARIABLES`); undefined when it names none (locally).
 * `ownArn` is the running function's, for the recovery function itself, whose environment cannot name it.
 */
export function summaryGuardsOf(
  env: Environment,
  client: Pick<SchedulerClient, 'send'>,
  ownArn?: string,
): SummaryGuardTimer | undefined {
  const group = env[SUMMARY_GUARD_VARIABLES.group];
  const roleArn = env[SUMMARY_GUARD_VARIABLES.roleArn];
  const functionArn = env[SUMMARY_GUARD_VARIABLES.functionArn] || ownArn;
  if (!group || !roleArn || !functionArn) return undefined;
  return scheduledSummaryGuards({ client, group, roleArn, functionArn });
}
