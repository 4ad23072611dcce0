/**
 * The per-vendor summary's reads (docs/design.md#the-summary): the half of its persistence the listing bundles. The
 * writes, and the reads that only writers make, are `summary-store.ts`; the two modules are the only ones that name
 * a summary item's key (a test holds the code to that).
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { RetryPolicy } from '../../platform/dynamodb/backoff';
import { batchGetItems } from '../../platform/dynamodb/batch-get';
import { capacityUnits } from '../../platform/dynamodb/capacity';
import { underDeadline } from '../../platform/dynamodb/deadline';
import { attributeValues, type ReadClient } from '../../platform/dynamodb/read-client';
import { parseSummary, type Summary, summaryItemKey, vendorOfSummary } from '../schema/summary';

/** A summary read, and what the read cost. */
export interface SummaryRead {
  readonly summary: Summary | undefined;
  readonly readUnits: number;
  readonly calls: number;
}

const BATCH_RETRY: RetryPolicy = { maxStalls: 8, baseDelayMs: 50, maxDelayMs: 2_000 };

/**
 * The reads of the summary items of one vendors table: all the listing needs. `SummaryStore` adds the writes; they
 * are apart so that the listing's bundle carries none of them, nor the document client they use
 * (docs/design.md#cold-start).
 */
export class SummaryReader {
  constructor(
    protected readonly client: ReadClient,
    protected readonly vendorsTable: string,
  ) {}

  /** A vendor's summary, read strongly; undefined when the vendor has none yet. */
  async read(vendorId: string, signal?: AbortSignal): Promise<SummaryRead> {
    const output = await this.client.send(
      new GetItemCommand({
        TableName: this.vendorsTable,
        Key: attributeValues(summaryItemKey(vendorId)),
        ConsistentRead: true,
        ReturnConsumedCapacity: 'TOTAL',
      }),
      underDeadline(signal),
    );
    return {
      summary: output.Item ? parseSummary(unmarshall(output.Item)) : undefined,
      readUnits: capacityUnits(output.ConsumedCapacity),
      calls: 1,
    };
  }

  /** Several vendors' summaries, by vendor (those without one left out). */
  async readMany(vendorIds: readonly string[]): Promise<Map<string, Summary>> {
    const { items } = await batchGetItems(this.client, this.vendorsTable, vendorIds.map(summaryItemKey), {
      retry: BATCH_RETRY,
    });
    return new Map(items.map((item) => [vendorOfSummary(item), parseSummary(item)]));
  }
}
