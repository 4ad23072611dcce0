/**
 * What a request's reads cost (docs/operating.md#metrics): the read units DynamoDB reported and the calls made, added
 * up over every read of the request, whichever strategy answers it.
 */

import type { ReadCost } from '../../platform/dynamodb/capacity';

/** The running cost of one request's reads. */
export class ReadMeter implements ReadCost {
  #readUnits = 0;
  #calls = 0;

  /** Adds what a read cost, and hands the read on. */
  add<T extends ReadCost>(read: T): T {
    this.#readUnits += read.readUnits;
    this.#calls += read.calls;
    return read;
  }

  get readUnits(): number {
    return this.#readUnits;
  }

  get calls(): number {
    return this.#calls;
  }
}
