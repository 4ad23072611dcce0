/**
 * One run of the feeds function (docs/design.md#feeds): what woke it — a batch of the vacancies table's stream (the
 * vendors whose vacancies changed: each that has feeds gets its build scheduled, `schedules.ts`) or a build's
 * schedule (`{ "build": "<vendor>" }`: its feeds built, `build.ts`). A vendor whose vacancies do not change has no
 * stream record, so no run and no read.
 */

import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { streamVendors } from '../../domain/change-feed/stream-vendors';
import type { Feed } from '../../domain/feed-registry/feed';
import type { Vendor } from '../../domain/schema/vendors';
import type { FeedBuildReport } from './build';
import { type BuildFeedsEvent, isBuildFeedsEvent } from './schedules';

/** What invokes the function. */
export type FeedsEvent = DynamoDBStreamEvent | BuildFeedsEvent;

/** A vendor as a build needs it. */
export type FeedVendor = Pick<Vendor, 'vendorId' | 'company' | 'status' | 'website'>;

export interface FeedsRunDependencies {
  readonly feedsOf: (vendorId: string) => Promise<readonly Feed[]>;
  readonly vendorOf: (vendorId: string) => Promise<FeedVendor | undefined>;
  /** Asks for a vendor's build (a one-time schedule); the same build when asked again. */
  readonly scheduleBuild: (vendorId: string) => Promise<unknown>;
  readonly build: (vendor: FeedVendor, feeds: readonly Feed[]) => Promise<FeedBuildReport>;
}

/** What a run did: the builds it scheduled, or the build it ran (or why none). */
export type FeedsRunReport =
  | { readonly kind: 'stream'; readonly vendors: number; readonly scheduled: number; readonly failed: number }
  | { readonly kind: 'build'; readonly vendorId: string; readonly outcome: 'no-feeds' | 'no-vendor' }
  | {
      readonly kind: 'build';
      readonly vendorId: string;
      readonly outcome: 'built';
      readonly report: FeedBuildReport;
    };

/**
 * Runs what the event asks. A stream batch: each vendor's feeds read (one Query) and, when it has any, its build
 * scheduled; a vendor that fails is reported (its first record, so the batch is retried from there — scheduling again
 * is harmless). A build: the vendor and its feeds read and built; a failure propagates (Lambda retries the
 * invocation).
 */
export async function runFeeds(
  event: FeedsEvent,
  deps: FeedsRunDependencies,
): Promise<{ report: FeedsRunReport; response?: DynamoDBBatchResponse }> {
  if (isBuildFeedsEvent(event)) {
    const vendorId = event.build;
    const [vendor, feeds] = await Promise.all([deps.vendorOf(vendorId), deps.feedsOf(vendorId)]);
    if (feeds.length === 0) return { report: { kind: 'build', vendorId, outcome: 'no-feeds' } };
    if (!vendor) return { report: { kind: 'build', vendorId, outcome: 'no-vendor' } };
    const report = await deps.build(vendor, feeds);
    return { report: { kind: 'build', vendorId, outcome: 'built', report } };
  }
  const failures: { itemIdentifier: string }[] = [];
  const vendors = streamVendors(event);
  let scheduled = 0;
  for (const [vendorId, first] of vendors) {
    try {
      if ((await deps.feedsOf(vendorId)).length === 0) continue;
      await deps.scheduleBuild(vendorId);
      scheduled += 1;
    } catch {
      failures.push({ itemIdentifier: first });
    }
  }
  return {
    report: { kind: 'stream', vendors: vendors.size, scheduled, failed: failures.length },
    response: { batchItemFailures: failures },
  };
}
