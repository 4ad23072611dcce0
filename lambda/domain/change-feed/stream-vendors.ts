/**
 * The vendors a batch of the vacancies table's stream changed (docs/design.md#webhooks, #feeds): what the functions
 * it wakes — the webhooks' dispatch and the feeds' scheduling — act on, once a vendor, each with the first record of
 * its in the batch (what a partial batch failure names, so the batch is retried from there).
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { ITEM } from '../schema/tables';

/** Each vendor of the batch, with the sequence number of its first record. */
export function streamVendors(event: DynamoDBStreamEvent): Map<string, string> {
  const vendors = new Map<string, string>();
  for (const record of event.Records) {
    const vendor = record.dynamodb?.NewImage?.[ITEM.vendor]?.S ?? record.dynamodb?.OldImage?.[ITEM.vendor]?.S;
    if (vendor && !vendors.has(vendor)) vendors.set(vendor, record.dynamodb?.SequenceNumber ?? '');
  }
  return vendors;
}
