/**
 * "At most 5 feeds a vendor" when adds race (docs/design.md#feeds), on the embedded engine: ten adds at once make
 * five feeds; a removal frees one place, which one of three racing adds gets; a vendor's webhook endpoints take
 * none of its feeds' places.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MAX_FEEDS_PER_VENDOR } from '../../../../../lambda/domain/feed-registry/feed';
import { FeedStore } from '../../../../../lambda/domain/feed-registry/feed-store';
import { MAX_ENDPOINTS_PER_VENDOR } from '../../../../../lambda/domain/webhook-registry/endpoint';
import { addEndpoint } from '../../../../../lib/ops/webhooks';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';

describe('feeds added at once', () => {
  let tables: TestTables;
  let store: FeedStore;

  beforeAll(async () => {
    tables = await createTestTables();
    store = new FeedStore(tables.documentClient, tables.names.vendors);
  });
  afterAll(async () => tables?.drop());

  it(`makes exactly ${MAX_FEEDS_PER_VENDOR} feeds of ten adds at once, and a removal frees a place`, async () => {
    const adds = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.add('racing', i % 2 ? 'indeed' : 'sitemap', 'az')),
    );
    const made = adds.flatMap((placed) => ('added' in placed ? [placed.added] : []));
    expect(made).toHaveLength(MAX_FEEDS_PER_VENDOR);
    expect(adds.filter((placed) => 'refused' in placed)).toEqual(
      Array.from({ length: 10 - MAX_FEEDS_PER_VENDOR }, () => ({ refused: 'full' })),
    );
    expect((await store.ofVendor('racing')).map((feed) => feed.feedId).sort()).toEqual(
      made.map((feed) => feed.feedId).sort(),
    );

    await store.remove(made[0]?.feedId ?? '');
    const again = await Promise.all(Array.from({ length: 3 }, () => store.add('racing', 'indeed', 'en')));
    expect(again.filter((placed) => 'added' in placed)).toHaveLength(1);
    expect(await store.ofVendor('racing')).toHaveLength(MAX_FEEDS_PER_VENDOR);
  });

  it("counts a vendor's feeds and its webhook endpoints apart", async () => {
    await Promise.all(
      Array.from({ length: MAX_ENDPOINTS_PER_VENDOR }, () =>
        addEndpoint(tables.documentClient, tables.names.vendors, 'both', 'https://receiver.example/hook', {
          allowLoopbackHttp: false,
        }),
      ),
    );
    const adds = await Promise.all(
      Array.from({ length: MAX_FEEDS_PER_VENDOR }, () => store.add('both', 'sitemap', 'az')),
    );
    expect(adds.every((placed) => 'added' in placed)).toBe(true);
  });
});
