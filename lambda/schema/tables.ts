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
 * The sparse "active by vendor" index. Its attributes are written on a vacancy item only while its status is
 * `active`, so the index holds active vacancies and nothing else. Every listing request reads all of a
 * vendor's entries (they give the exact `total`), so an entry's size is the cost of a request: names are one
 * letter and values compact (see `active-index.ts`).
 */
export const ACTIVE_INDEX = {
  name: 'active-by-vendor',
  attributes: {
    /** Partition key: the vendor id. */
    vendorId: 'v',
    /** Sort key: creation second then id, 12 bytes big-endian; read descending, newest first. */
    order: 'o',
    /** Vacancy type (1..4), for the `type` filter. */
    type: 't',
    /** Minimum years of experience, for the `experience_min` filter. */
    experienceMin: 'n',
    /** Maximum years of experience (absent when open-ended), for the `experience_max` filter. */
    experienceMax: 'x',
    /** Deadline as a day number (days since 1970-01-01), so expired vacancies are filtered on the index. */
    deadline: 'd',
  },
} as const;

/** The name of an attribute of the active index. */
export type ActiveIndexAttribute = (typeof ACTIVE_INDEX.attributes)[keyof typeof ACTIVE_INDEX.attributes];

/**
 * Vacancies: one item per vacancy, keyed by its id alone, so that an id belongs to one vendor by construction
 * (an import claims it with a conditional put).
 */
export const VACANCIES_TABLE: TableDefinition = {
  logicalName: 'Vacancies',
  partitionKey: { name: 'id', type: 'N' },
  globalIndexes: [
    {
      indexName: ACTIVE_INDEX.name,
      partitionKey: { name: ACTIVE_INDEX.attributes.vendorId, type: 'S' },
      sortKey: { name: ACTIVE_INDEX.attributes.order, type: 'B' },
      projection: {
        type: 'INCLUDE',
        nonKeyAttributes: [
          ACTIVE_INDEX.attributes.type,
          ACTIVE_INDEX.attributes.experienceMin,
          ACTIVE_INDEX.attributes.experienceMax,
          ACTIVE_INDEX.attributes.deadline,
        ],
      },
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
