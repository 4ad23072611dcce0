/**
 * A small worker pool for the writers' callers (the import, the expiry job): bounded concurrency, and a clean stop —
 * once `stop()` says so, or an item fails, no new item starts, and those under way finish before the pool returns
 * (or throws the first failure). So whoever runs it can count on nothing running after it: the writers' last
 * deltas are added only once every write is done.
 */

/** Runs `work` over `items`, at most `concurrency` at once; see the module's comment. */
export async function inPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
  stop: () => boolean,
): Promise<void> {
  let next = 0;
  let failed: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !stop() && !failed) {
      try {
        await work(items[next++] as T);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failed) throw failed.error;
}
