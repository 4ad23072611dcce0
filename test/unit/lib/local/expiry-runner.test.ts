/** The local server's expiry runner: once at start, then just after each day of the service zone begins. */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { zoneClock } from '../../../../lambda/platform/time/zone-clock';
import { startExpiryRunner } from '../../../../lib/local/expiry-runner';

describe('the expiry runner of the local server', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs at start, then a second after each day boundary of the service zone', async () => {
    jest.useFakeTimers({ now: new Date('2026-03-07T19:58:00Z') }); // 23:58 in Baku
    const run = jest.fn(async () => undefined);
    const runner = startExpiryRunner({ clock: zoneClock('Asia/Baku'), run, onError: () => undefined });
    await runner.started;
    expect(run).toHaveBeenCalledTimes(1);
    expect(runner.nextRun().toISOString()).toBe('2026-03-07T20:00:01.000Z');

    await jest.advanceTimersByTimeAsync(60_000);
    expect(run).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(61_000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(runner.nextRun().toISOString()).toBe('2026-03-08T20:00:01.000Z');
    runner.stop();
    await jest.advanceTimersByTimeAsync(2 * 86_400_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('hands a failed run to onError and runs again at the next boundary', async () => {
    jest.useFakeTimers({ now: new Date('2026-09-05T12:00:00Z') });
    const failure = new Error('DynamoDB is down');
    const run = jest.fn(async () => {
      throw failure;
    });
    const onError = jest.fn();
    // In Santiago, 2026-09-06 begins at 01:00: midnight is skipped by the daylight-saving jump.
    const runner = startExpiryRunner({ clock: zoneClock('America/Santiago'), run, onError });
    await runner.started;
    expect(onError).toHaveBeenCalledWith(failure);
    expect(runner.nextRun().toISOString()).toBe('2026-09-06T04:00:01.000Z');
    await jest.advanceTimersByTimeAsync(runner.nextRun().getTime() - Date.now());
    expect(run).toHaveBeenCalledTimes(2);
    expect(onError).toHaveBeenCalledTimes(2);
    runner.stop();
  });
});
