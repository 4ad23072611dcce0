/**
 * The change feed's reads (docs/design.md#incremental-sync, #webhooks): what a sync and the webhooks' dispatch read
 * of a vendor's changes — ranges of its change index (`change-index-reader.ts`) and its summary, which says what of
 * them is kept and whether a writer is at work. Both read through this interface; the vacancies route's repository
 * is one (it reads more besides), `createChangeFeedReader` the one the webhooks' function builds.
 *
 * The summary's reads are handed in (`domain/store/summary-reader.ts`'s `SummaryReader`), not made here: the recount, in
 * `store/`, follows this folder's settle rule, so this folder imports nothing of `store/` back.
 */
import type { ReadCost } from '../../platform/dynamodb/capacity';
import type { ReadClient } from '../../platform/dynamodb/read-client';
import type { Summary } from '../schema/summary';
import {
  type ChangeEntry,
  type ChangeRange,
  countChangeEntries,
  readChangeEntries,
} from './change-index-reader';

/** A vendor's summary as read, and what the read cost (`domain/store/summary-reader.ts`'s `SummaryRead`). */
export interface FeedSummaryRead extends ReadCost {
  readonly summary: Summary | undefined;
}

/** The reads of the change feed: a vendor's changes by range, and its summary. */
export interface ChangeFeedReader {
  /** The first `limit` changes of a range of the change index, oldest first, and whether more follow. */
  readChanges(
    range: ChangeRange & { readonly limit: number },
  ): Promise<ReadCost & { readonly entries: ChangeEntry[]; readonly more: boolean }>;
  /** How many changes a range of the change index holds. */
  countChanges(range: ChangeRange): Promise<ReadCost & { readonly total: number }>;
  /** The vendor's summary, read strongly; undefined when it has none. */
  readSummary(vendorId: string, signal?: AbortSignal): Promise<FeedSummaryRead>;
}

/** Where the change feed is read. */
export interface ChangeFeedReaderOptions {
  /** The vacancies table, whose change index is read. */
  readonly tableName: string;
  /** Index entries per Query call, at most (`MeteredQueryTarget`); tests set it low. */
  readonly queryPageSize?: number;
  /** The summaries' reads (`SummaryReader` over the vendors table). */
  readonly summaries: { read(vendorId: string, signal?: AbortSignal): Promise<FeedSummaryRead> };
}

/** The change feed over DynamoDB: Queries of the change index, and the summaries' strong reads. */
export function createChangeFeedReader(
  client: ReadClient,
  options: ChangeFeedReaderOptions,
): ChangeFeedReader {
  const index = { client, tableName: options.tableName, queryPageSize: options.queryPageSize };
  return {
    readChanges: (range) => readChangeEntries(index, range),
    countChanges: (range) => countChangeEntries(index, range),
    readSummary: (vendorId, signal) => options.summaries.read(vendorId, signal),
  };
}
