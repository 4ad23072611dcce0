/**
 * The local server's background work, written once (docs/design.md#layout): the webhook dispatch, the feeds'
 * builds and the summaries' guards are each a pass that writes wake — one pass at a time, and one more after it,
 * however many wakes came while it ran — and work due at a time (a retry, a lease's guard), each on a timer of this
 * process. What is each one's own (what a pass does, which writes wake it) stays in its runner; this is how they run.
 *
 * `idle()` is how a test (or the server at its end) knows the work is done rather than guessing how long it takes:
 * it resolves once no pass runs or is owed, no timer is armed and no work is under way.
 */
import { delayUntil, replacesHeld } from '../../lambda/functions/webhooks/wake-up';

/** How a runner runs. */
export interface CoalescingRunnerOptions {
  /** The work a wake asks for. Its failure goes to `onError`; the next wake runs it again. */
  readonly pass: () => Promise<unknown>;
  /**
   * How long a pass waits after the wake that asked for it (ms): the wakes that come meanwhile join it. None (0) by
   * default: a pass starts at once, or as soon as the one running ends.
   */
  readonly delayMs?: number;
  /**
   * Wakes itself this often (ms): for an engine whose writes it cannot see. What it asks for is owed only once it
   * runs: `idle()` does not wait for the next poll — nor can it know of a write that only a poll will find.
   */
  readonly pollMs?: number;
  /** The time the due times of `at` are in (ms): `Date.now` unless given (DynamoDB's clock, say). */
  readonly now?: () => number;
  readonly onError: (error: unknown) => void;
}

/** A running runner. */
export interface CoalescingRunner {
  /**
   * Asks for a pass: after the delay (`delayMs`, unless `{ delayMs }` says otherwise for this wake), or as soon as the
   * pass running ends. Resolves once a pass that started after this wake has ended (at once when stopped).
   */
  wake(options?: { readonly delayMs?: number }): Promise<void>;
  /**
   * Runs `work` at `dueAt` (this runner's time), under `key`: a key holds one timer, the earliest asked — a later
   * time for a key already armed changes nothing.
   */
  at(key: string, dueAt: number, work: () => Promise<unknown>): void;
  /** Disarms the timer of `key`, if armed — or of every key `key` matches. */
  cancel(key: string | ((key: string) => boolean)): void;
  /** Runs `work` now, as owed work (`idle()` waits for it). */
  run(work: () => Promise<unknown>): void;
  /** How much is owed: a pass running or asked for, each timer armed, each work under way. 0 once idle. */
  pending(): number;
  /** Resolves once nothing is owed (see `pending`): at once when nothing is. */
  idle(): Promise<void>;
  /** Runs nothing more: the timers disarmed, a pass not started dropped; resolves once what runs has ended. */
  stop(): Promise<void>;
}

interface Deferred {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** Starts a runner; see the module's comment. */
export function startCoalescingRunner(options: CoalescingRunnerOptions): CoalescingRunner {
  const now = options.now ?? Date.now;
  let stopped = false;
  let stopping: Promise<void> | undefined;
  /** The pass running. */
  let running: Promise<void> | undefined;
  /**
   * A pass asked for and not started: whether its delay is over, its timer while it is not, and whether only the
   * poller asked for it.
   */
  let owed: { readonly done: Deferred; ready: boolean; timer?: NodeJS.Timeout; polled: boolean } | undefined;
  const timers = new Map<string, { readonly dueAt: number; readonly timer: NodeJS.Timeout }>();
  const underway = new Set<Promise<unknown>>();
  let waiters: (() => void)[] = [];

  const pending = () => (running ? 1 : 0) + (owed && !owed.polled ? 1 : 0) + timers.size + underway.size;
  const settleWaiters = () => {
    if (pending() > 0) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };

  const startOwed = () => {
    if (running || !owed?.ready || stopped) return;
    const { done } = owed;
    owed = undefined;
    running = (async () => {
      try {
        await options.pass();
      } catch (error) {
        options.onError(error);
      }
    })().finally(() => {
      running = undefined;
      done.resolve();
      startOwed();
      settleWaiters();
    });
  };

  const track = (work: () => Promise<unknown>) => {
    const settled = Promise.resolve()
      .then(work)
      .catch(options.onError)
      .finally(() => {
        underway.delete(settled);
        settleWaiters();
      });
    underway.add(settled);
  };

  const ask = (wakeOptions: { readonly delayMs?: number }, polled: boolean): Promise<void> => {
    if (stopped) return Promise.resolve();
    const delayMs = wakeOptions.delayMs ?? options.delayMs ?? 0;
    if (!owed) owed = { done: deferred(), ready: false, polled };
    const asked = owed;
    if (!polled) asked.polled = false;
    if (delayMs <= 0) {
      clearTimeout(asked.timer);
      asked.ready = true;
    } else if (!asked.ready && !asked.timer) {
      asked.timer = setTimeout(() => {
        asked.timer = undefined;
        asked.ready = true;
        startOwed();
      }, delayMs);
      asked.timer.unref();
    }
    startOwed();
    return asked.done.promise;
  };
  const wake: CoalescingRunner['wake'] = (wakeOptions = {}) => ask(wakeOptions, false);

  const poller = options.pollMs ? setInterval(() => void ask({}, true), options.pollMs) : undefined;
  poller?.unref();

  return {
    wake,
    at(key, dueAt, work) {
      const held = timers.get(key);
      if (stopped || !replacesHeld(held?.dueAt, dueAt)) return;
      if (held) clearTimeout(held.timer);
      const timer = setTimeout(
        () => {
          timers.delete(key);
          if (!stopped) track(work);
          settleWaiters();
        },
        delayUntil(now(), dueAt),
      );
      // The process's own work (a server, a test) keeps it alive; a timer of what is owed never does.
      timer.unref();
      timers.set(key, { dueAt, timer });
    },
    cancel(key) {
      const matches = typeof key === 'string' ? (armed: string) => armed === key : key;
      for (const [armed, { timer }] of timers)
        if (matches(armed)) {
          clearTimeout(timer);
          timers.delete(armed);
        }
      settleWaiters();
    },
    run(work) {
      if (!stopped) track(work);
    },
    pending,
    idle() {
      if (stopping) return stopping;
      if (pending() === 0) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        if (poller) clearInterval(poller);
        for (const { timer } of timers.values()) clearTimeout(timer);
        timers.clear();
        if (owed) {
          clearTimeout(owed.timer);
          owed.done.resolve();
          owed = undefined;
        }
        await running;
        await Promise.all(underway);
        settleWaiters();
      })();
      return stopping;
    },
  };
}
