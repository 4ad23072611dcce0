/**
 * The DynamoDB tables of the service, written once as plain data.
 *
 * The CDK stack turns these definitions into `aws_dynamodb.Table` constructs and `createTables` turns them
 * into `CreateTable` calls against any endpoint (the local server, the tests), so the two cannot drift.
 * This module imports nothing: the Lambda bundles read attribute and index names from it too.
 */

/** A key attribute: its name and DynamoDB scalar type. */
export interface KeyAttribute {
  readonly name: string;
  readonly type: 'S' | 'N';
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
 * Attributes written on a vacancy item only while its `status` is `active`, so that the sparse
 * "active by vendor" index holds active vacancies and nothing else. Index entries are read in full for
 * every listing request (they give the exact `total`), and attribute names count toward their size, so
 * the names are deliberately short.
 */
export const ACTIVE_INDEX_ATTRIBUTES = {
  /** Index partition key: the vendor id, copied. */
  vendorId: 'av',
  /** Index sort key: newest first when read descending, `id` as tie-break (see `activeOrderKey`). */
  order: 'ao',
  /** Vacancy type (1..4), for the `type` filter. */
  type: 'at',
  /** Minimum years of experience, for the `experience_min` filter. */
  experienceMin: 'an',
  /** Maximum years of experience (absent when open-ended), for the `experience_max` filter. */
  experienceMax: 'ax',
  /** Deadline `YYYY-MM-DD`, so expired vacancies are filtered out on the index. */
  deadline: 'ad',
} as const;

/** Name of the sparse index of active vacancies, partitioned by vendor. */
export const ACTIVE_INDEX_NAME = 'active-by-vendor';

/** Vacancies: one item per vacancy, keyed by vendor and vacancy id. */
export const VACANCIES_TABLE: TableDefinition = {
  logicalName: 'Vacancies',
  partitionKey: { name: 'vendorId', type: 'S' },
  sortKey: { name: 'id', type: 'N' },
  globalIndexes: [
    {
      indexName: ACTIVE_INDEX_NAME,
      partitionKey: { name: ACTIVE_INDEX_ATTRIBUTES.vendorId, type: 'S' },
      sortKey: { name: ACTIVE_INDEX_ATTRIBUTES.order, type: 'S' },
      projection: {
        type: 'INCLUDE',
        nonKeyAttributes: [
          ACTIVE_INDEX_ATTRIBUTES.type,
          ACTIVE_INDEX_ATTRIBUTES.experienceMin,
          ACTIVE_INDEX_ATTRIBUTES.experienceMax,
          ACTIVE_INDEX_ATTRIBUTES.deadline,
        ],
      },
    },
  ],
};

/**
 * Vendors and their API keys, in one table keyed by `pk`: vendor items (`vendor#<id>`) and key items
 * (`key#<sha-256 of the key>`), so the authorizer finds a key with one GetItem on its hash.
 */
export const VENDORS_TABLE: TableDefinition = {
  logicalName: 'Vendors',
  partitionKey: { name: 'pk', type: 'S' },
  globalIndexes: [],
};

/** Every table of the service. */
export const TABLES = [VACANCIES_TABLE, VENDORS_TABLE] as const;
