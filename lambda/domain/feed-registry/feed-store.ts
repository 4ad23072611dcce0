/**
 * The feeds' persistence (docs/design.md#feeds): every read and write of a feed item — the operator's add and remove
 * (`lib/ops/feeds.ts`), a vendor's feeds in one Query, a feed by id, and what a build records. At most
 * `MAX_FEEDS_PER_VENDOR` a vendor, however many adds race: a place is taken first (`domain/store/vendor-places.ts`,
 * `feed-places#<vendor>`), as for webhook endpoints.
 */
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed } from '../../platform/aws/failure';
import type { Locale } from '../schema/vacancy';
import { ITEM_KIND } from '../schema/vendors';
import { serverClock } from '../store/clock';
import { type Placed, type PlacedKind, PlacedThings } from '../store/vendor-places';
import {
  type Feed,
  type FeedFormat,
  feedItemKey,
  MAX_FEEDS_PER_VENDOR,
  newFeedId,
  newFeedToken,
} from './feed';

/** A vendor's places for feeds. */
const FEED_PLACES: PlacedKind = {
  places: 'feed-places',
  kind: ITEM_KIND.feed,
  idAttribute: 'feedId',
  itemKey: feedItemKey,
  max: MAX_FEEDS_PER_VENDOR,
};

/**
 * The feed items of one vendors table: by id, a vendor's, every vendor's, removed (`PlacedThings`); and builds. A
 * feed's files are the caller's to delete before its item is removed (`FeedFiles.remove`): a remove killed between
 * the two then leaves a feed whose URL answers 404, which removing again completes — never files served for a feed
 * that is gone.
 */
export class FeedStore extends PlacedThings<Feed> {
  constructor(client: DynamoDBDocumentClient, vendorsTable: string) {
    super(client, vendorsTable, FEED_PLACES);
  }

  /**
   * Adds a feed of a vendor, with a new id and token, made at the service's time (DynamoDB's, as bounded from its
   * answers: `localNow` is this machine's clock, which tests skew); refused when the vendor has its
   * `MAX_FEEDS_PER_VENDOR`. Whether the vendor exists is the caller's to know.
   */
  async add(
    vendorId: string,
    format: FeedFormat,
    lang: Locale,
    localNow: () => number = Date.now,
  ): Promise<Placed<Feed>> {
    const now = serverClock(this.client, localNow);
    return this.places.add(
      vendorId,
      newFeedId,
      (feedId): Feed => ({ feedId, vendorId, format, lang, token: newFeedToken(), createdAt: now() }),
      now,
    );
  }

  /**
   * Records a build of a feed: when it ran (ms), how many vacancies it holds and, for a sitemap, how many it left out
   * (`leftOut`: their URL no sitemap can list); false when the feed is gone (removed while it was built: the builder
   * then deletes what it wrote). A build older than the one recorded changes nothing.
   */
  async recordBuild(feedId: string, builtAt: number, vacancies: number, leftOut?: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.vendorsTable,
          Key: feedItemKey(feedId),
          UpdateExpression:
            leftOut === undefined
              ? 'SET builtAt = :at, vacancies = :count REMOVE leftOut'
              : 'SET builtAt = :at, vacancies = :count, leftOut = :leftOut',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(builtAt) OR builtAt <= :at)',
          ExpressionAttributeValues: {
            ':at': builtAt,
            ':count': vacancies,
            ...(leftOut !== undefined && { ':leftOut': leftOut }),
          },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      return (await this.get(feedId)) !== undefined;
    }
  }
}
