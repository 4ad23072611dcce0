/**
 * A vendor's places (docs/design.md#webhooks): the rule "at most so many of a kind a vendor", held whatever the
 * timing — for webhook endpoints and feeds alike. A vendor's places of a kind are one item of the vendors table
 * (`<kind>-places#<vendor>`: a map from a thing's id to when its place was taken, ms); an add takes a place with a
 * conditional update (`size(places) < max`) before it writes the thing, and a remove frees it after deleting the
 * thing. An add or remove killed between its two writes leaves a place without a thing: an add that finds the vendor
 * full frees those older than `ABANDONED_PLACE_MS` (each conditioned on being the same place), and an add whose place
 * was freed under it (it paused longer than that) deletes what it wrote and takes a place again. The first add of a
 * vendor writes the item with the things it already has (made before places were kept).
 */
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { isConditionFailed } from '../../platform/aws/failure';
import { queryAll } from '../../platform/dynamodb/query-all';
import { VENDOR_INDEXES } from '../schema/tables';

/** The things a vendor may have only so many of, as the vendors table holds them. */
export interface PlacedKind {
  /** What names the item of a vendor's places: `<places>#<vendorId>` (`webhook-places`, `feed-places`). */
  readonly places: string;
  /** The things' kind on the `by-kind` index (`ITEM_KIND`), and the attribute that holds a thing's id. */
  readonly kind: string;
  readonly idAttribute: string;
  /** Key of a thing's item. */
  readonly itemKey: (id: string) => Record<string, string>;
  /** How many a vendor may have. */
  readonly max: number;
}

/** What an add came to: the thing written in a place, or why not (the vendor is full; places changing too fast). */
export type Placed<T> = { readonly added: T } | { readonly refused: 'full' | 'busy' };

/**
 * How long a place may stand without its thing before an add that finds the vendor full frees it: an add killed
 * between taking the place and writing the thing (or a remove killed between its two writes) leaves one.
 */
export const ABANDONED_PLACE_MS = 60_000;

/** Tries of an add whose place was freed under it (it came back after `ABANDONED_PLACE_MS`). */
const PLACE_TRIES = 3;

/** A vendor's places of one kind, in one vendors table. */
export class VendorPlaces {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly kind: PlacedKind,
  ) {}

  private key(vendorId: string) {
    return { pk: `${this.kind.places}#${vendorId}` };
  }

  /** The vendor's places as stored (strong read); undefined when the vendor has never had a place item. */
  private async read(vendorId: string): Promise<Record<string, number> | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: this.key(vendorId), ConsistentRead: true }),
    );
    return Item ? ((Item.places ?? {}) as Record<string, number>) : undefined;
  }

  /** The things the vendor has (id → when made), from the `by-kind` index. */
  private async existing(vendorId: string): Promise<Record<string, number>> {
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      IndexName: VENDOR_INDEXES.byKind,
      KeyConditionExpression: 'kind = :kind AND vendorId = :vendorId',
      ExpressionAttributeValues: { ':kind': this.kind.kind, ':vendorId': vendorId },
    });
    return Object.fromEntries(items.map((item) => [item[this.kind.idAttribute], item.createdAt]));
  }

  /**
   * Takes a place for `id`; false when the vendor has its `max`. The first take of a vendor writes the place item with
   * the things it already has; a full vendor's abandoned places are freed, and the place tried once more.
   */
  async take(vendorId: string, id: string, now: () => number): Promise<boolean> {
    for (let round = 0; round < 3; round += 1) {
      const taken = await this.updatePlace(vendorId, id, {
        UpdateExpression: 'SET places.#id = :at',
        ConditionExpression: 'attribute_exists(places) AND size(places) < :max',
        ExpressionAttributeValues: { ':at': now(), ':max': this.kind.max },
      });
      if (taken) return true;
      const places = await this.read(vendorId);
      if (places === undefined) {
        await this.client
          .send(
            new PutCommand({
              TableName: this.tableName,
              Item: { ...this.key(vendorId), vendorId, places: await this.existing(vendorId) },
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          )
          .catch((error: unknown) => {
            if (!isConditionFailed(error)) throw error;
          });
        continue;
      }
      if (Object.keys(places).length < this.kind.max) continue;
      const abandoned = await this.abandoned(places, now());
      if (abandoned.length === 0) return false;
      for (const [abandonedId, at] of abandoned) await this.free(vendorId, abandonedId, at);
    }
    return false;
  }

  /** The places, among `places`, older than `ABANDONED_PLACE_MS` whose thing does not exist. */
  private async abandoned(places: Record<string, number>, now: number): Promise<[string, number][]> {
    const old = Object.entries(places).filter(([, at]) => at < now - ABANDONED_PLACE_MS);
    const found = await Promise.all(
      old.map(async ([id]) => {
        const { Item } = await this.client.send(
          new GetCommand({ TableName: this.tableName, Key: this.kind.itemKey(id), ConsistentRead: true }),
        );
        return Item !== undefined;
      }),
    );
    return old.filter((_, index) => !found[index]);
  }

  /** Frees a thing's place; `at`, when given, only if it is still the place taken then. */
  async free(vendorId: string, id: string, at?: number): Promise<void> {
    await this.updatePlace(vendorId, id, {
      UpdateExpression: 'REMOVE places.#id',
      ConditionExpression: at === undefined ? 'attribute_exists(places.#id)' : 'places.#id = :at',
      ...(at !== undefined && { ExpressionAttributeValues: { ':at': at } }),
    });
  }

  /** A conditional update of the place `#id` of a vendor's item; false when its condition failed. */
  private async updatePlace(
    vendorId: string,
    id: string,
    update: Pick<
      UpdateCommandInput,
      'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeValues'
    >,
  ): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(vendorId),
          ExpressionAttributeNames: { '#id': id },
          ...update,
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      return false;
    }
  }

  /**
   * Adds a thing in a place: a new id (`newId`), its place taken (`take`), the thing made (`make`, at the service's
   * time: `now`) and written as its item, kind and all — and, should its place have been freed as abandoned while
   * this add was slow, deleted again and another place taken. `now` is the service's clock (the places' times, and an
   * abandoned place's age, are DynamoDB's).
   */
  async add<T extends object>(
    vendorId: string,
    newId: () => string,
    make: (id: string) => T,
    now: () => number,
  ): Promise<Placed<T>> {
    for (let tries = 0; tries < PLACE_TRIES; tries += 1) {
      const id = newId();
      if (!(await this.take(vendorId, id, now))) return { refused: 'full' };
      const thing = make(id);
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...this.kind.itemKey(id), kind: this.kind.kind, ...thing },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      if ((await this.read(vendorId))?.[id] !== undefined) return { added: thing };
      await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: this.kind.itemKey(id) }));
    }
    return { refused: 'busy' };
  }

  /** Deletes a thing's item, then frees its place; the item as it was, or undefined when there was none. */
  async remove(id: string): Promise<Record<string, unknown> | undefined> {
    const { Attributes } = await this.client.send(
      new DeleteCommand({ TableName: this.tableName, Key: this.kind.itemKey(id), ReturnValues: 'ALL_OLD' }),
    );
    if (Attributes) await this.free(String(Attributes.vendorId), id);
    return Attributes;
  }
}

/** A thing a vendor has a place for, as its record says: its vendor, and when it was made. */
export interface PlacedThing {
  readonly vendorId: string;
  readonly createdAt: number;
}

/**
 * The things of one placed kind in one vendors table — a registry's persistence (feeds, public agent endpoints):
 * each by id (a strong read), a vendor's (one Query of the `by-kind` index; a vendor has at most `max`), every
 * vendor's, and removed with its place freed. A registry adds how its things are made and what else it writes.
 */
export class PlacedThings<T extends PlacedThing> {
  protected readonly places: VendorPlaces;

  constructor(
    protected readonly client: DynamoDBDocumentClient,
    protected readonly vendorsTable: string,
    private readonly placed: PlacedKind,
  ) {
    this.places = new VendorPlaces(client, vendorsTable, placed);
  }

  /** One thing by id, read strongly; undefined when there is none. */
  async get(id: string): Promise<T | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.vendorsTable, Key: this.placed.itemKey(id), ConsistentRead: true }),
    );
    return Item ? this.thingOf(Item) : undefined;
  }

  /** A vendor's things, oldest first. */
  ofVendor(vendorId: string): Promise<T[]> {
    return this.query({ ':kind': this.placed.kind, ':vendorId': vendorId });
  }

  /** Every vendor's things, by vendor, oldest first. */
  all(): Promise<T[]> {
    return this.query({ ':kind': this.placed.kind });
  }

  /** Removes a thing's item and frees its place; the thing as it was, or undefined when there was none. */
  async remove(id: string): Promise<T | undefined> {
    const removed = await this.places.remove(id);
    return removed && this.thingOf(removed);
  }

  /** An item as the thing's record: its key and kind left out. */
  protected thingOf(item: Record<string, unknown>): T {
    const { pk: _pk, kind: _kind, ...thing } = item;
    return thing as unknown as T;
  }

  private async query(values: Record<string, string>): Promise<T[]> {
    const items = await queryAll(this.client, {
      TableName: this.vendorsTable,
      IndexName: VENDOR_INDEXES.byKind,
      KeyConditionExpression: `kind = :kind${values[':vendorId'] ? ' AND vendorId = :vendorId' : ''}`,
      ExpressionAttributeValues: values,
    });
    const id = (thing: T) => String((thing as unknown as Record<string, unknown>)[this.placed.idAttribute]);
    return items
      .map((item) => this.thingOf(item))
      .sort(
        (a, b) =>
          a.vendorId.localeCompare(b.vendorId) || a.createdAt - b.createdAt || id(a).localeCompare(id(b)),
      );
  }
}
