/**
 * A run of the feeds function (`run.ts`): a stream batch schedules one build per changed vendor that has feeds and
 * none for one without; a failing vendor is reported by its first record; a build event builds the vendor's feeds,
 * and nothing for a vendor without feeds or gone.
 */
import { describe, expect, it } from '@jest/globals';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { Feed } from '../../../../../lambda/domain/feed-registry/feed';
import { ITEM } from '../../../../../lambda/domain/schema/tables';
import type { FeedBuildReport } from '../../../../../lambda/functions/feeds/build';
import { type FeedsRunDependencies, runFeeds } from '../../../../../lambda/functions/feeds/run';

const feed = (vendorId: string): Feed => ({
  feedId: `fd_${vendorId}`,
  vendorId,
  format: 'indeed',
  lang: 'en',
  token: 'a'.repeat(32),
  createdAt: 1,
});

const stream = (...vendors: string[]): DynamoDBStreamEvent => ({
  Records: vendors.map((vendor, i) => ({
    eventName: 'MODIFY',
    dynamodb: { SequenceNumber: String(100 + i), NewImage: { [ITEM.vendor]: { S: vendor } } },
  })),
});

function deps(withFeeds: readonly string[], failing: readonly string[] = []) {
  const scheduled: string[] = [];
  const built: string[] = [];
  const reads: string[] = [];
  const dependencies: FeedsRunDependencies = {
    feedsOf: async (vendorId) => {
      reads.push(vendorId);
      return withFeeds.includes(vendorId) ? [feed(vendorId)] : [];
    },
    vendorOf: async (vendorId) =>
      vendorId === 'gone' ? undefined : { vendorId, company: 'Co', status: 'active' },
    scheduleBuild: async (vendorId) => {
      if (failing.includes(vendorId)) throw new Error('Scheduler is down');
      scheduled.push(vendorId);
    },
    build: async (vendor, feeds) => {
      built.push(vendor.vendorId);
      return {
        vendorId: vendor.vendorId,
        feeds: [],
        vacancies: feeds.length,
        leftOut: 0,
        readUnits: 0,
        calls: 0,
      } as FeedBuildReport;
    },
  };
  return { dependencies, scheduled, built, reads };
}

describe('runFeeds', () => {
  it('schedules one build per changed vendor with feeds, and reads each vendor once', async () => {
    const { dependencies, scheduled, built, reads } = deps(['acme', 'globex']);
    const { report, response } = await runFeeds(
      stream('acme', 'acme', 'initech', 'globex', 'acme'),
      dependencies,
    );
    expect(scheduled).toEqual(['acme', 'globex']);
    expect(reads).toEqual(['acme', 'initech', 'globex']);
    expect(built).toEqual([]);
    expect(report).toEqual({ kind: 'stream', vendors: 3, scheduled: 2, failed: 0 });
    expect(response).toEqual({ batchItemFailures: [] });
  });

  it("reports a failing vendor's first record, and goes on with the others", async () => {
    const { dependencies, scheduled } = deps(['acme', 'globex'], ['acme']);
    const { response } = await runFeeds(stream('globex', 'acme', 'acme'), dependencies);
    expect(scheduled).toEqual(['globex']);
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: '101' }] });
  });

  it('builds the feeds of the vendor a schedule names; nothing for one without feeds or gone', async () => {
    const { dependencies, built } = deps(['acme', 'gone']);
    expect((await runFeeds({ build: 'acme' }, dependencies)).report).toMatchObject({ outcome: 'built' });
    expect((await runFeeds({ build: 'initech' }, dependencies)).report).toMatchObject({
      outcome: 'no-feeds',
    });
    expect((await runFeeds({ build: 'gone' }, dependencies)).report).toMatchObject({ outcome: 'no-vendor' });
    expect(built).toEqual(['acme']);
  });
});
