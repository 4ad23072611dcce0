/**
 * The expiry job in the local server (docs/design.md#expiry): run at start, then just after each day of the service
 * time zone begins — where the deployed schedule runs it hourly — so that a vacancy whose deadline passed leaves the
 * local listing as it would leave the deployed one.
 */
import type { ZoneClock } from '../../lambda/platform/time/zone-clock';

/** How the runner runs. */
export interface ExpiryRunnerOptions {
  readonly clock: ZoneClock;
  /** One run of the job (the Lambda entry point, locally). */
  readonly run: () => Promise<unknown>;
  /** What to do with a run that failed: the next day boundary runs it again. */
  readonly onError: (error: unknown) => void;
  /** The time (tests move it). */
  readonly now?: () => Date;
  /** How long after a day begins a run starts, so that the day has begun on every clock involved. */
  readonly delayMs?: number;
}

/** A running expiry runner. */
export interface ExpiryRunner {
  /** The run at start, done (a failure handed to `onError`). */
  readonly started: Promise<void>;
  /** When the next run is due. */
  readonly nextRun: () => Date;
  /** Stops scheduling runs; resolves once a run under way has finished (it still needs the engine). */
  stop(): Promise<void>;
}

/** Starts the runner; see the module's comment. */
export function startExpiryRunner(options: ExpiryRunnerOptions): ExpiryRunner {
  const now = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let next = new Date(0);
  let running: Promise<void> = Promise.resolve();
  const runOnce = () => {
    running = (async () => {
      try {
        await options.run();
      } catch (error) {
        options.onError(error);
      }
    })();
    return running;
  };
  const schedule = () => {
    if (stopped) return;
    next = new Date(options.clock.nextDayStart(now()).getTime() + (options.delayMs ?? 1_000));
    timer = setTimeout(
      () => {
        void runOnce().then(schedule);
      },
      Math.max(0, next.getTime() - now().getTime()),
    );
    // The runner never keeps the process alive on its own.
    timer.unref();
  };
  const started = runOnce().then(schedule);
  return {
    started,
    nextRun: () => next,
    stop() {
      stopped = true;
      clearTimeout(timer);
      return running;
    },
  };
}
