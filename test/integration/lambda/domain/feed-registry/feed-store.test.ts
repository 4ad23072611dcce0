/**
 * The feed record's persistence on the embedded engine (docs/design.md#feeds): what an add stores, a feed by id, a
 * vendor's feeds in one Query, a build recorded, a removal — and the service's clock, whatever the operator's says.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  FEED_TOKEN,
  FEED_TOKEN_BYTES,
  type Feed,
  feedItemKey,
} from '../../../../../lambda/domain/feed-registry/feed';
import { FeedStore } from '../../../../../lambda/domain/feed-registry/feed-store';
import { createDynamoDBClient } from '../../../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../../../lambda/platform/dynamodb/document-client';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';

describe('the feed store', () => {
  let tables: TestTables;
  let store: FeedStore;

  const added = async (vendorId: string, format: Feed['format'] = 'indeed', lang: Feed['lang'] = 'az') => {
    const placed = await store.add(vendorId, format, lang);
    if (!('added' in placed)) throw new Error(`refused: ${placed.refused}`);
    return placed.added;
  };

  beforeAll(async () => {
    tables = await createTestTables();
    store = new FeedStore(tables.documentClient, tables.names.vendors);
  });
  afterAll(async () => tables?.drop());

  it('stores a feed as one item of the vendors table, kind feed, with a token of 192 random bits', async () => {
    const feed = await added('acme', 'sitemap', 'en');
    expect(feed).toEqual({
      feedId: expect.stringMatching(/^fd_[A-Za-z0-9_-]{12}$/),
      vendorId: 'acme',
      format: 'sitemap',
      lang: 'en',
      token: expect.stringMatching(FEED_TOKEN),
      createdAt: expect.any(Number),
    });
    expect(Buffer.from(feed.token, 'base64url')).toHaveLength(FEED_TOKEN_BYTES);
    const { Item } = await tables.documentClient.send(
      new GetCommand({
        TableName: tables.names.vendors,
        Key: feedItemKey(feed.feedId),
        ConsistentRead: true,
      }),
    );
    expect(Item).toEqual({ pk: `feed#${feed.feedId}`, kind: 'feed', ...feed });
    expect(await store.get(feed.feedId)).toEqual(feed);
    expect(await store.get('fd_nosuchfeed0')).toBeUndefined();
  });

  it('gives every feed a token of its own', async () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 10; i += 1) tokens.add((await added(`tokens-${i}`)).token);
    expect(tokens.size).toBe(10);
  });

  it("reads a vendor's feeds, oldest first, in one Query", async () => {
    const first = await added('bazaar', 'indeed');
    const second = await added('bazaar', 'sitemap', 'en');
    await added('elsewhere');
    const commands: string[] = [];
    const client = createDocumentClient(createDynamoDBClient({ endpoint: tables.endpoint }));
    client.middlewareStack.add(
      (next, context) => async (args) => {
        commands.push(context.commandName ?? '');
        return next(args);
      },
      { step: 'initialize' },
    );
    expect(await new FeedStore(client, tables.names.vendors).ofVendor('bazaar')).toEqual([first, second]);
    expect(commands).toEqual(['QueryCommand']);
    client.destroy();

    const all = await store.all();
    expect(all.filter((feed) => feed.vendorId === 'bazaar')).toEqual([first, second]);
    expect(all.map((feed) => feed.vendorId)).toContain('elsewhere');
  });

  it('records a build, keeps the latest of two, and says when the feed is gone', async () => {
    const feed = await added('builder');
    expect(await store.recordBuild(feed.feedId, 2_000_000, 12)).toBe(true);
    expect(await store.get(feed.feedId)).toEqual({ ...feed, builtAt: 2_000_000, vacancies: 12 });
    // A build that ended after a later one had been recorded.
    expect(await store.recordBuild(feed.feedId, 1_000_000, 3)).toBe(true);
    expect(await store.get(feed.feedId)).toMatchObject({ builtAt: 2_000_000, vacancies: 12 });
    await store.remove(feed.feedId);
    expect(await store.recordBuild(feed.feedId, 3_000_000, 1)).toBe(false);
    expect(await store.get(feed.feedId)).toBeUndefined();
  });

  it('removes a feed and frees its place; nothing to remove is undefined', async () => {
    const feeds = [];
    for (let i = 0; i < 5; i += 1) feeds.push(await added('full'));
    expect(await store.add('full', 'indeed', 'az')).toEqual({ refused: 'full' });
    expect(await store.remove(feeds[2]?.feedId ?? '')).toEqual(feeds[2]);
    expect(await store.remove(feeds[2]?.feedId ?? '')).toBeUndefined();
    expect(await store.add('full', 'sitemap', 'az')).toEqual({
      added: expect.objectContaining({ format: 'sitemap' }),
    });
    expect(await store.ofVendor('full')).toHaveLength(5);
  });

  it.each([
    ['5 minutes fast', 300_000],
    ['5 minutes slow', -300_000],
  ])("stamps a feed at the service's time with the operator's clock %s", async (_name, skewMs) => {
    const real = Date.now.bind(Date);
    const spy = jest.spyOn(Date, 'now').mockImplementation(() => real() + skewMs);
    // A client of its own, as a CLI run has: what it learns of DynamoDB's clock is learnt from its answers.
    const client = createDocumentClient(createDynamoDBClient({ endpoint: tables.endpoint }));
    const before = real();
    const placed = await new FeedStore(client, tables.names.vendors).add(
      `skewed${skewMs > 0 ? 'fast' : 'slow'}`,
      'indeed',
      'az',
    );
    const after = real();
    client.destroy();
    spy.mockRestore();
    const { createdAt } = (placed as { added: Feed }).added;
    expect(createdAt).toBeLessThanOrEqual(after + 1_000);
    expect(createdAt).toBeGreaterThan(before - 2_000);
  });
});
