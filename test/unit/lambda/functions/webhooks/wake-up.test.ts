/**
 * The webhooks' wake-up policy (lambda/functions/webhooks/wake-up.ts) on a clock of the test's: where a wake-up goes (in the
 * run or a schedule), that an endpoint keeps its earliest, which one a run waits for next and when a dispatch
 * stops — the deployed margins (`WEBHOOK_WAKE_UPS`) and a test's own. No timer runs.
 */
import { describe, expect, it } from '@jest/globals';
import { WEBHOOK_WAKE_UPS } from '../../../../../lambda/domain/service/limits';
import {
  askWakeUp,
  delayUntil,
  type InRunWakes,
  nextInRunWake,
  placeWakeUp,
  replacesHeld,
  stopsBeforeNextEvent,
} from '../../../../../lambda/functions/webhooks/wake-up';

const NOW = 1_800_000_000_000;

describe('the webhooks wake-up policy', () => {
  it('waits in the run for a wake-up due within 20 s, and schedules a later one', () => {
    expect(WEBHOOK_WAKE_UPS).toEqual({ inRunWaitMs: 20_000, stopMarginMs: 15_000 });
    expect(placeWakeUp(NOW, NOW - 5_000, WEBHOOK_WAKE_UPS)).toBe('in-run');
    expect(placeWakeUp(NOW, NOW, WEBHOOK_WAKE_UPS)).toBe('in-run');
    expect(placeWakeUp(NOW, NOW + 20_000, WEBHOOK_WAKE_UPS)).toBe('in-run');
    expect(placeWakeUp(NOW, NOW + 20_001, WEBHOOK_WAKE_UPS)).toBe('schedule');
    expect(placeWakeUp(NOW, NOW + 300_000, { inRunWaitMs: 300_000, stopMarginMs: 0 })).toBe('in-run');
  });

  it('holds one wake-up an endpoint, the earliest asked', () => {
    expect(replacesHeld(undefined, NOW)).toBe(true);
    expect(replacesHeld(NOW, NOW - 1)).toBe(true);
    expect(replacesHeld(NOW, NOW)).toBe(false);
    expect(replacesHeld(NOW, NOW + 1)).toBe(false);

    const wakes: InRunWakes = new Map();
    expect(askWakeUp(wakes, 'e1', NOW + 10_000, NOW, WEBHOOK_WAKE_UPS)).toBe('in-run');
    expect(askWakeUp(wakes, 'e1', NOW + 15_000, NOW, WEBHOOK_WAKE_UPS)).toBe('in-run');
    expect(askWakeUp(wakes, 'e1', NOW + 5_000, NOW, WEBHOOK_WAKE_UPS)).toBe('in-run');
    expect(askWakeUp(wakes, 'e2', NOW + 60_000, NOW, WEBHOOK_WAKE_UPS)).toBe('schedule');
    expect([...wakes]).toEqual([['e1', NOW + 5_000]]);
  });

  it('waits next for the earliest held wake-up the run has time for, and for none past its time', () => {
    const wakes: InRunWakes = new Map([
      ['late', NOW + 18_000],
      ['first', NOW + 2_000],
      ['tie', NOW + 2_000],
    ]);
    expect(nextInRunWake(wakes, NOW, 60_000)).toEqual({ endpointId: 'first', dueAt: NOW + 2_000 });
    expect(nextInRunWake(wakes, NOW, 2_000)).toEqual({ endpointId: 'first', dueAt: NOW + 2_000 });
    expect(nextInRunWake(wakes, NOW, 1_999)).toBeUndefined();
    expect(nextInRunWake(new Map(), NOW, 60_000)).toBeUndefined();
    // Past due: waited for at once, whatever is left.
    expect(nextInRunWake(new Map([['e', NOW - 1_000]]), NOW, 0)).toEqual({
      endpointId: 'e',
      dueAt: NOW - 1_000,
    });
    expect(delayUntil(NOW, NOW + 2_000)).toBe(2_000);
    expect(delayUntil(NOW, NOW - 2_000)).toBe(0);
  });

  it('stops a dispatch before its next event when less than the margin is left', () => {
    expect(stopsBeforeNextEvent(15_000, WEBHOOK_WAKE_UPS)).toBe(false);
    expect(stopsBeforeNextEvent(14_999, WEBHOOK_WAKE_UPS)).toBe(true);
    expect(stopsBeforeNextEvent(0, { inRunWaitMs: 0, stopMarginMs: 0 })).toBe(false);
  });
});
