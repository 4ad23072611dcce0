/** What DynamoDB says a call consumed: read or write capacity units, as `ReturnConsumedCapacity: 'TOTAL'` reports them. */
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';

/** Capacity units of a response's `ConsumedCapacity`, one entry or several. */
export const capacityUnits = (capacity: ConsumedCapacity | ConsumedCapacity[] | undefined): number =>
  [capacity ?? []].flat().reduce((total, entry) => total + (entry.CapacityUnits ?? 0), 0);

/** What a read cost. */
export interface ReadCost {
  /** Read capacity units consumed, summed over every call (as DynamoDB reports them). */
  readonly readUnits: number;
  /** DynamoDB calls made. */
  readonly calls: number;
}
