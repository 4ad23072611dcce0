/**
 * When a vendor's feeds are built on AWS (docs/design.md#feeds): a change of its vacancies asks for a build at the
 * next `FEED_BUILD_WINDOW.bucketMs` boundary that lies past the indexes' settle window, plus the vendor's own jitter
 * (so that vendors changed together are not built in the same second) — an EventBridge Scheduler one-time schedule
 * named by the vendor and that boundary. Every change until the boundary asks for the same schedule, which exists
 * already (one build, however many changes); a change after it asks for the next. From a change to its build: at
 * most a window, the settle wait and a jitter — 8 minutes and some seconds; with the build itself and the minute
 * CloudFront may keep the last file, within the 15 the contract gives.
 */
import { createHash } from 'node:crypto';
import { createOneTimeSchedule, type ScheduleTarget } from '../../platform/aws/one-time-schedules';

/** The coalescing of a vendor's changes into one build. */
export const FEED_BUILD_WINDOW = {
  /** Changes in one window make one build. */
  bucketMs: 5 * 60_000,
  /** A vendor's build is this much past the boundary at most: its own share, from its id. */
  jitterMs: 3 * 60_000,
} as const;

/** What a build's schedule invokes the feeds function with. */
export interface BuildFeedsEvent {
  readonly build: string;
}

export const isBuildFeedsEvent = (event: unknown): event is BuildFeedsEvent =>
  typeof event === 'object' && event !== null && typeof (event as { build?: unknown }).build === 'string';

const digest = (vendorId: string) => createHash('sha256').update(vendorId).digest();

/** A schedule's name: at most 64 characters of `[0-9A-Za-z_.-]`; a long vendor id shortened, with its digest. */
function scheduleName(vendorId: string, window: number): string {
  const suffix = `-${window.toString(36)}`;
  const name = `${vendorId}${suffix}`;
  if (name.length <= 64) return name;
  return `${vendorId.slice(0, 40)}-${digest(vendorId).toString('base64url').slice(0, 12)}${suffix}`;
}

/**
 * The build that a change seen at `now` (ms) joins: its schedule's name and time. `settleMs` is how long the indexes
 * may take to show the change (the build must read it).
 */
export function buildSlot(vendorId: string, now: number, settleMs: number): { name: string; at: number } {
  const window = Math.ceil((now + settleMs + 1) / FEED_BUILD_WINDOW.bucketMs);
  const jitter = digest(vendorId).readUInt32BE(0) % FEED_BUILD_WINDOW.jitterMs;
  return { name: scheduleName(vendorId, window), at: window * FEED_BUILD_WINDOW.bucketMs + jitter };
}

/**
 * Asks for the build of a vendor's feeds that a change seen at `now` joins; asked again (another change, the stream's
 * batch retried), it is the same schedule. The schedule deletes itself once it has invoked the function; a build
 * that then fails is Lambda's to retry (the function's asynchronous invocations).
 */
export async function scheduleFeedBuild(
  target: ScheduleTarget,
  vendorId: string,
  now: number,
  settleMs: number,
): Promise<{ name: string; at: number }> {
  const slot = buildSlot(vendorId, now, settleMs);
  await createOneTimeSchedule(target, slot.name, slot.at, { build: vendorId } satisfies BuildFeedsEvent, 3);
  return slot;
}
