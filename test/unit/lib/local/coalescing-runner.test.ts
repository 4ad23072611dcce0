/**
 * The local server's one way of running background work: passes coalesced (one at a time, one more for the wakes
 * that came meanwhile), a delay that wakes join, keyed timers (the earliest asked), and `idle()` — on a fake clock, so
 * every wait is the clock's, never the machine's.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { type CoalescingRunner, startCoalescingRunner } from '../../../../lib/local/coalescing-runner';

/** A pass the test ends by hand: each call waits for `finish()`. */
function heldPasses() {
  const ends: (() => void)[] = [];
  const pass = jest.fn(() => new Promise<void>((resolve) => ends.push(resolve)));
  return {
    pass,
    /** Ends the oldest pass still running. */
    async finish() {
      ends.shift()?.();
      await jest.advanceTimersByTimeAsync(0);
    },
  };
}

/** Whether `promise` has settled, once what is queued has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await jest.advanceTimersByTimeAsync(0);
  return done;
}

describe('the coalescing runner', () => {
  let runner: CoalescingRunner | undefined;
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
    jest.useRealTimers();
  });

  it('runs one pass at a time, and one more after it however many wakes came meanwhile', async () => {
    jest.useFakeTimers();
    const { pass, finish } = heldPasses();
    runner = startCoalescingRunner({ pass, onError: () => undefined });
    const first = runner.wake();
    expect(pass).toHaveBeenCalledTimes(1);
    const joined = [runner.wake(), runner.wake(), runner.wake()];
    expect(pass).toHaveBeenCalledTimes(1);
    await finish();
    expect(await settled(first)).toBe(true);
    // The wakes during the first pass: one pass more, which each of them waits for.
    expect(pass).toHaveBeenCalledTimes(2);
    expect(await settled(Promise.all(joined))).toBe(false);
    await finish();
    expect(await settled(Promise.all(joined))).toBe(true);
    expect(pass).toHaveBeenCalledTimes(2);
    expect(runner.pending()).toBe(0);
  });

  it('waits the delay after the first wake; the wakes within it join the same pass', async () => {
    jest.useFakeTimers();
    const pass = jest.fn(async () => undefined);
    runner = startCoalescingRunner({ pass, delayMs: 6_000, onError: () => undefined });
    const woken = runner.wake();
    await jest.advanceTimersByTimeAsync(4_000);
    void runner.wake();
    await jest.advanceTimersByTimeAsync(1_999);
    expect(pass).not.toHaveBeenCalled();
    expect(await settled(woken)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(pass).toHaveBeenCalledTimes(1);
    expect(await settled(woken)).toBe(true);
    // A wake of its own delay (none): at once.
    await runner.wake({ delayMs: 0 });
    expect(pass).toHaveBeenCalledTimes(2);
  });

  it('starts a wake that came during a pass once that pass ends, if its delay is over by then', async () => {
    jest.useFakeTimers();
    const { pass, finish } = heldPasses();
    runner = startCoalescingRunner({ pass, delayMs: 1_000, onError: () => undefined });
    void runner.wake({ delayMs: 0 });
    void runner.wake();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(pass).toHaveBeenCalledTimes(1);
    await finish();
    expect(pass).toHaveBeenCalledTimes(2);
    await finish();
  });

  it('hands a failed pass to onError and runs the next wake all the same', async () => {
    jest.useFakeTimers();
    const failure = new Error('DynamoDB is down');
    const pass = jest.fn(async () => {
      if (pass.mock.calls.length === 1) throw failure;
    });
    const onError = jest.fn();
    runner = startCoalescingRunner({ pass, onError });
    await runner.wake();
    expect(onError).toHaveBeenCalledWith(failure);
    await runner.wake();
    expect(pass).toHaveBeenCalledTimes(2);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('runs work at its due time on the clock it is given; a key keeps the earliest time asked', async () => {
    jest.useFakeTimers();
    let clock = 1_000_000;
    const ran: string[] = [];
    runner = startCoalescingRunner({
      pass: async () => undefined,
      now: () => clock,
      onError: () => undefined,
    });
    runner.at('endpoint', clock + 5_000, async () => ran.push('at 5 s'));
    // Later: changes nothing. Earlier: replaces it.
    runner.at('endpoint', clock + 9_000, async () => ran.push('at 9 s'));
    runner.at('endpoint', clock + 2_000, async () => ran.push('at 2 s'));
    runner.at('guard', clock + 3_000, async () => ran.push('guard'));
    expect(runner.pending()).toBe(2);
    clock += 1_999;
    await jest.advanceTimersByTimeAsync(1_999);
    expect(ran).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(ran).toEqual(['at 2 s']);
    runner.cancel('guard');
    await jest.advanceTimersByTimeAsync(60_000);
    expect(ran).toEqual(['at 2 s']);
    expect(runner.pending()).toBe(0);
  });

  it('disarms by key, or every key a test matches', async () => {
    jest.useFakeTimers();
    const ran: string[] = [];
    runner = startCoalescingRunner({ pass: async () => undefined, onError: () => undefined });
    for (const key of ['ep_1@100', 'ep_1@200', 'ep_10@100', 'ep_2@100'])
      runner.at(key, Date.now() + 1_000, async () => ran.push(key));
    runner.cancel((key) => key.startsWith('ep_1@'));
    runner.cancel('ep_2@100');
    expect(runner.pending()).toBe(1);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(ran).toEqual(['ep_10@100']);
  });

  it('is idle only once nothing runs, nothing is owed and no timer is armed', async () => {
    jest.useFakeTimers();
    const { pass, finish } = heldPasses();
    runner = startCoalescingRunner({ pass, delayMs: 1_000, onError: () => undefined });
    expect(await settled(runner.idle())).toBe(true);

    void runner.wake();
    const idle = runner.idle();
    expect(await settled(idle)).toBe(false);
    await jest.advanceTimersByTimeAsync(1_000);
    // The pass arms a retry while it runs, and hands off work that outlasts it.
    let handedOff = () => {};
    runner.at('retry', Date.now() + 3_000, async () => undefined);
    runner.run(() => new Promise<void>((resolve) => (handedOff = resolve)));
    await finish();
    expect(runner.pending()).toBe(2);
    expect(await settled(idle)).toBe(false);
    handedOff();
    expect(await settled(idle)).toBe(false);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(await settled(idle)).toBe(true);
    expect(runner.pending()).toBe(0);
  });

  it('wakes itself every pollMs; what a poll asks for is owed only once it runs', async () => {
    jest.useFakeTimers();
    const { pass, finish } = heldPasses();
    // As the feeds poll: the poll's round waits the delay, and the next poll comes as it starts.
    runner = startCoalescingRunner({ pass, pollMs: 5_000, delayMs: 5_000, onError: () => undefined });
    await jest.advanceTimersByTimeAsync(5_000);
    expect(pass).not.toHaveBeenCalled();
    expect(runner.pending()).toBe(0);
    expect(await settled(runner.idle())).toBe(true);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(pass).toHaveBeenCalledTimes(1);
    expect(await settled(runner.idle())).toBe(false);
    await finish();
    expect(await settled(runner.idle())).toBe(true);
    // A wake of its own makes the pass the poll asked for owed.
    void runner.wake();
    expect(runner.pending()).toBe(1);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(pass).toHaveBeenCalledTimes(2);
    await finish();
  });

  it('stops: timers disarmed, an owed pass dropped, the pass running awaited; nothing runs after', async () => {
    jest.useFakeTimers();
    const { pass, finish } = heldPasses();
    const later = jest.fn(async () => undefined);
    runner = startCoalescingRunner({ pass, delayMs: 1_000, pollMs: 2_000, onError: () => undefined });
    void runner.wake({ delayMs: 0 });
    const owed = runner.wake();
    runner.at('retry', Date.now() + 500, later);
    const stopped = runner.stop();
    const idle = runner.idle();
    expect(await settled(stopped)).toBe(false);
    await finish();
    expect(await settled(stopped)).toBe(true);
    expect(await settled(Promise.all([owed, idle]))).toBe(true);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(pass).toHaveBeenCalledTimes(1);
    expect(later).not.toHaveBeenCalled();
    // Asked after it stopped: nothing runs, and nothing is waited for.
    expect(await settled(runner.wake())).toBe(true);
    runner.at('late', Date.now(), later);
    runner.run(later);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(later).not.toHaveBeenCalled();
    expect(runner.pending()).toBe(0);
  });
});
