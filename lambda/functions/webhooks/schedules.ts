/**
 * The webhooks' timers on AWS (docs/design.md#webhooks): a wake-up due within the run is waited for in the run; a
 * later one (`wake-up.ts` decides) is an EventBridge Scheduler one-time schedule that invokes the function with the endpoint's id, and
 * deletes itself once it has. Nothing runs per minute or per vendor: a schedule exists only for an endpoint with
 * a retry (or a settling change) due, or held by a dispatch (the lease's guard, deleted when it lets go).
 */

import type { WebhookEndpoint } from '../../domain/webhook-registry/endpoint';
import {
  createOneTimeSchedule,
  deleteOneTimeSchedule,
  type ScheduleTarget,
} from '../../platform/aws/one-time-schedules';

/** Where the schedules go: the webhooks function, invoked with an endpoint's id. */
export type { ScheduleTarget };

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
  await createOneTimeSchedule(
    target,
    scheduleName(endpoint.endpointId, at),
    at,
    { endpointId: endpoint.endpointId },
    3,
  );
}

/** Deletes the wake-up `scheduleWake` made for `at` (a lease's guard, once the lease is let go); gone already is fine. */
export async function cancelWake(
  target: Pick<ScheduleTarget, 'client' | 'group'>,
  endpoint: Pick<WebhookEndpoint, 'endpointId'>,
  at: number,
): Promise<void> {
  await deleteOneTimeSchedule(target, scheduleName(endpoint.endpointId, at));
}
