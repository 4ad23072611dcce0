/**
 * The embedded engine in a process of its own, on a folder it keeps its store in, for tests that kill it (`SIGKILL`)
 * while writes are under way and open the store again. It tells the parent over IPC where it listens and what it
 * mended at start (`{ endpoint, repaired }`); on `SIGTERM` it stops cleanly, and tells `{ stopped: true }`.
 *
 * Argument: the data folder; without one, the store is in memory (`ownEngine` in `dynamodb.ts`).
 */
import { startEmbeddedDynamoDB } from '../lib/local/embedded-dynamodb';

const dataDir = process.argv[2];
const engine = await startEmbeddedDynamoDB(dataDir ? { dataDir } : {});
process.send?.({ endpoint: engine.endpoint, repaired: engine.repaired ?? null });
process.once('SIGTERM', () => {
  void engine.stop().then(() => {
    process.send?.({ stopped: true });
    process.disconnect?.();
  });
});
// Ends with the process that started it: should that one end first (a test file that failed before its teardown, a
// worker forced to exit), its channel closes.
process.once('disconnect', () => process.exit(0));
