/**
 * The summaries' guards on AWS (docs/design.md#a-kill-timeline): each an EventBridge Scheduler one-time schedule, made
 * when a writer takes a lease, deleted when it lets go cleanly, and deleting itself once it has fired — so nothing
 * runs, and nothing is billed, while nobody writes. A guard invokes the expiry function with the vendor
 * (`{ "recoverSummary": "<vendor>" }`), which runs `recoverSummary` for that vendor only.
 */
import { createHash } from 'node:crypto';
import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import {
  createOneTimeSchedule,
  deleteOneTimeSchedule,
  type ScheduleTarget,
} from '../../platform/aws/one-time-schedules';
import { type Environment, SUMMARY_GUARD_VARIABLES } from '../settings/environment';
import type { SummaryGuardTimer } from './summary-guard';

/** What a guard's firing asks of the expiry function. */
export interface RecoverSummaryEvent {
  readonly recoverSummary: string;
}

/** Whether an invocation of the expiry function is a guard's. */
export const isRecoverSummaryEvent = (event: unknown): event is RecoverSummaryEvent =>
  typeof (event as { recoverSummary?: unknown } | null)?.recoverSummary === 'string';

/** Where the guards go: the expiry function, invoked with a vendor. */
export type SummaryGuardTarget = ScheduleTarget;

/**
 * A guard's name: by the vendor (hashed: a schedule name takes letters, digits, `-`, `_` and `.`, 64 at most) and the
 * second, so that the same guard asked twice is one schedule.
 */
const guardName = (vendorId: string, at: number) =>
  `summary-${createHash('sha256').update(vendorId).digest('hex').slice(0, 32)}-${Math.ceil(at / 1000)}`;

/** The guards as one-time schedules of `target`. */
export function scheduledSummaryGuards(target: SummaryGuardTarget): SummaryGuardTimer {
  return {
    arm: (vendorId, at) =>
      createOneTimeSchedule(
        target,
        guardName(vendorId, at),
        at,
        { recoverSummary: vendorId } satisfies RecoverSummaryEvent,
        5,
      ),
    disarm: (vendorId, at) => deleteOneTimeSchedule(target, guardName(vendorId, at)),
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
