/**
 * The coalescing of a vendor's changes into one build (`schedules.ts`): every change of a window asks for the same
 * schedule, its time past every change by the settle window and within the contract's 15 minutes; vendors spread;
 * a name is what EventBridge Scheduler takes; asked twice, one schedule.
 */
import { ConflictException, type CreateScheduleCommand } from '@aws-sdk/client-scheduler';
import { describe, expect, it } from '@jest/globals';
import {
  buildSlot,
  FEED_BUILD_WINDOW,
  isBuildFeedsEvent,
  scheduleFeedBuild,
} from '../../../../../lambda/functions/feeds/schedules';

const SETTLE = 5_000;
const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);

describe('buildSlot', () => {
  it('gives every change of a window one schedule, after each change has settled, within 15 minutes', () => {
    const slots = new Map<string, number>();
    for (let now = T0; now < T0 + 20 * 60_000; now += 7_919) {
      const slot = buildSlot('acme', now, SETTLE);
      expect(slot.at).toBeGreaterThan(now + SETTLE);
      expect(slot.at - now).toBeLessThanOrEqual(
        FEED_BUILD_WINDOW.bucketMs + SETTLE + FEED_BUILD_WINDOW.jitterMs + 1,
      );
      expect(slot.at - now).toBeLessThan(15 * 60_000);
      const seen = slots.get(slot.name);
      if (seen !== undefined) expect(slot.at).toBe(seen);
      slots.set(slot.name, slot.at);
    }
    // Twenty minutes of changes: four or five builds, not one per change.
    expect(slots.size).toBeGreaterThanOrEqual(4);
    expect(slots.size).toBeLessThanOrEqual(5);
  });

  it('spreads vendors over the window, and names each as EventBridge Scheduler allows', () => {
    const times = new Set<number>();
    for (const vendorId of ['acme', 'globex', 'initech', 'a'.repeat(63), `b${'-x'.repeat(31)}`]) {
      const { name, at } = buildSlot(vendorId, T0, SETTLE);
      expect(name).toMatch(/^[0-9A-Za-z_.-]{1,64}$/);
      times.add(at);
    }
    expect(times.size).toBe(5);
    expect(buildSlot('a'.repeat(63), T0, SETTLE).name).not.toBe(
      buildSlot(`${'a'.repeat(62)}b`, T0, SETTLE).name,
    );
  });
});

describe('scheduleFeedBuild', () => {
  it('makes a self-deleting schedule that invokes the function with the vendor; asked twice, one', async () => {
    const made = new Map<string, CreateScheduleCommand['input']>();
    const client = {
      send: async (command: CreateScheduleCommand) => {
        const name = command.input.Name as string;
        if (made.has(name))
          throw new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} });
        made.set(name, command.input);
        return {};
      },
    };
    const target = { client, group: 'feeds', roleArn: 'arn:role', functionArn: 'arn:function' } as never;
    const first = await scheduleFeedBuild(target, 'acme', T0, SETTLE);
    const again = await scheduleFeedBuild(target, 'acme', T0 + 1_000, SETTLE);
    expect(again).toEqual(first);
    expect(made.size).toBe(1);
    const input = made.get(first.name);
    expect(input?.ActionAfterCompletion).toBe('DELETE');
    expect(input?.GroupName).toBe('feeds');
    expect(JSON.parse(input?.Target?.Input as string)).toEqual({ build: 'acme' });
    expect(isBuildFeedsEvent(JSON.parse(input?.Target?.Input as string))).toBe(true);
    expect(isBuildFeedsEvent({ Records: [] })).toBe(false);
  });
});
