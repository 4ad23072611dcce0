/**
 * The live heap, for the tests that hold a stream's memory to a bound: what is still reachable after a full garbage
 * collection. V8's `gc` is exposed at run time (the test runner's Node starts without `--expose-gc`): the flag is set,
 * and a new context has the function.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Bytes of the heap still in use after a full collection. */
export function liveHeapBytes(): number {
  gc();
  return process.memoryUsage().heapUsed;
}
