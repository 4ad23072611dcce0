/** Ctrl-C and SIGTERM as a clean stop of a long command (an import, an expiry run). */

/** Stops a long command cleanly on Ctrl-C or SIGTERM: writes under way finish, the report says what is left. */
export function interruptible(): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: controller.signal,
    release() {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
