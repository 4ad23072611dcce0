/**
 * The DynamoDB tables of the service, written once as plain data (docs/design.md#data-model). The CDK stack
 * turns them into `aws_dynamodb.Table` constructs and `createTables` into `CreateTable` calls against any
 * endpoint (the local server, the tests), so the deployed and the local schema cannot drift.
 */

/** A key attribute: its name and DynamoDB scalar type. */
export interface KeyAttribute {
  readonly name: string;
  readonly type: 'S' | 'N' | 'B';
}

/** What a secondary index copies from the base item. */
export type IndexProjection =
  | { readonly type: 'KEYS_ONLY' | 'ALL' }
  | { readonly type: 'INCLUDE'; readonly nonKeyAttributes: readonly string[] };

/** A global secondary index. */
export interface GlobalIndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  readonly projection: IndexProjection;
}

/** A table: its logical name (CDK construct id, and the default physical name locally) and its keys. */
export interface TableDefinition {
  readonly logicalName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  readonly globalIndexes: readonly GlobalIndexDefinition[];
}

/**
 * The attributes a vacancy item has besides the vacancy's own fields (docs/design.md#data-model). Their names are a
 * letter or two: index entries are read by the thousand, and their size is what a request costs.
 */
export const ITEM = {
  /** The vendor, always: the id's owner, and the partition of the active and change indexes. */
  vendor: 'v',
  /** When the vacancy last changed as a client sees it: milliseconds since 1970 (a number). */
  updatedAt: 'updated_at',
  /** The change index's sort key: `updated_at` (6 bytes) then the id (7 bytes), big-endian. */
  change: 'c',
  /** While active: the active index's sort key, the creation second (5 bytes) then the id (7 bytes). */
  order: 'o',
  /** While active: the vacancy type (1..4), for the `type` filter. */
  type: 't',
  /** While active: the minimum years of experience, for `experience_min`. */
  experienceMin: 'n',
  /** While active: the maximum years (absent when open-ended), for `experience_max`. */
  experienceMax: 'x',
  /** While active: the deadline as a day number (days since 1970-01-01); the expiry index's sort key. */
  deadline: 'd',
  /** While active: the expiry index's partition, one of `EXPIRY_SHARDS` by id, so no one partition is hot. */
  expiryShard: 'e',
  /**
   * Which write put the item: a token unique to that write (`domain/store/writers.ts`), so that a writer that gave up on a
   * write, or whose answer never came, knows from the item whether it landed. Not content: no client sees it.
   */
  write: 'w',
} as const;

/** An attribute of `ITEM`. */
export type ItemAttribute = (typeof ITEM)[keyof typeof ITEM];

/** Partitions of the expiry index. */
export const EXPIRY_SHARDS = 16;

/**
 * The sparse "active by vendor" index: an item is in it while it has an order key, which it has while its status is
 * `active`. Every listing reads a vendor's entries, so they hold only what the filters need.
 */
export const ACTIVE_INDEX = {
  name: 'active-by-vendor',
  partitionKey: ITEM.vendor,
  sortKey: ITEM.order,
  projected: [ITEM.type, ITEM.experienceMin, ITEM.experienceMax, ITEM.deadline],
} as const;

/**
 * The sparse "search by vendor" index: the active index's keys and filter values, and the vacancy's `category`,
 * `city` and `title` as the item already carries them — so DynamoDB fills it from the items already stored, with no
 * backfill. A listing with search, category, city or facets reads a vendor's entries once into the function's
 * memory (docs/design.md#search); the active index stays for the listing without them, whose entries are narrower.
 */
export const SEARCH_INDEX = {
  name: 'search-by-vendor',
  partitionKey: ITEM.vendor,
  sortKey: ITEM.order,
  projected: [...ACTIVE_INDEX.projected, 'category', 'city', 'title'],
} as const;

/**
 * The change index: every item of a vendor — active or not, a tombstone too — ordered by when it last changed, then
 * by id. An incremental sync reads it; writing an item moves its entry.
 */
export const CHANGE_INDEX = {
  name: 'changes-by-vendor',
  partitionKey: ITEM.vendor,
  sortKey: ITEM.change,
  projected: ['status'],
} as const;

/**
 * The sparse expiry index: active items by deadline day, in a few shards. The expiry job finds what is past its
 * deadline with a Query per shard (`d` < today), never a Scan; an expired item leaves it.
 */
export const EXPIRY_INDEX = {
  name: 'expiring',
  partitionKey: ITEM.expiryShard,
  sortKey: ITEM.deadline,
} as const;

/**
 * Vacancies: one item per vacancy (or tombstone of one), keyed by its id alone, so that an id belongs to one vendor
 * by construction (a write claims it with a condition).
 */
export const VACANCIES_TABLE: TableDefinition = {
  logicalName: 'Vacancies',
  partitionKey: { name: 'id', type: 'N' },
  globalIndexes: [
    {
      indexName: ACTIVE_INDEX.name,
      partitionKey: { name: ACTIVE_INDEX.partitionKey, type: 'S' },
      sortKey: { name: ACTIVE_INDEX.sortKey, type: 'B' },
      projection: { type: 'INCLUDE', nonKeyAttributes: ACTIVE_INDEX.projected },
    },
    {
      indexName: CHANGE_INDEX.name,
      partitionKey: { name: CHANGE_INDEX.partitionKey, type: 'S' },
      sortKey: { name: CHANGE_INDEX.sortKey, type: 'B' },
      projection: { type: 'INCLUDE', nonKeyAttributes: CHANGE_INDEX.projected },
    },
    {
      indexName: EXPIRY_INDEX.name,
      partitionKey: { name: EXPIRY_INDEX.partitionKey, type: 'N' },
      sortKey: { name: EXPIRY_INDEX.sortKey, type: 'N' },
      projection: { type: 'KEYS_ONLY' },
    },
    // Added by a later release than the three before it: a deployed table gains it in place (docs/operating.md#upgrading).
    {
      indexName: SEARCH_INDEX.name,
      partitionKey: { name: SEARCH_INDEX.partitionKey, type: 'S' },
      sortKey: { name: SEARCH_INDEX.sortKey, type: 'B' },
      projection: { type: 'INCLUDE', nonKeyAttributes: SEARCH_INDEX.projected },
    },
  ],
};

/** Indexes of the vendors table, for the operator's listings (never on a request path). */
export const VENDOR_INDEXES = {
  /** Items by kind, then vendor id: every vendor; a vendor's keys. */
  byKind: 'by-kind',
  /** Key items by their public id, to revoke a key by its id. */
  byKeyId: 'by-key-id',
} as const;

/**
 * Vendors and their API keys, in one table keyed by `pk`: vendor items (`vendor#<id>`) and key items
 * (`key#<SHA-256 of the key>`), so the authorizer finds a key with one GetItem on its hash. Two small indexes
 * let the operator's commands address what they touch without reading the table.
 */
export const VENDORS_TABLE: TableDefinition = {
  logicalName: 'Vendors',
  partitionKey: { name: 'pk', type: 'S' },
  globalIndexes: [
    {
      indexName: VENDOR_INDEXES.byKind,
      partitionKey: { name: 'kind', type: 'S' },
      sortKey: { name: 'vendorId', type: 'S' },
      projection: { type: 'ALL' },
    },
    {
      indexName: VENDOR_INDEXES.byKeyId,
      partitionKey: { name: 'keyId', type: 'S' },
      projection: { type: 'KEYS_ONLY' },
    },
  ],
};

/** Every table of the service. */
export const TABLES = [VACANCIES_TABLE, VENDORS_TABLE] as const;

/** Physical names of the service's tables in one environment. */
export interface TableNames {
  readonly vacancies: string;
  readonly vendors: string;
}
