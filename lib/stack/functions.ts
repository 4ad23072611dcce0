import {
  type aws_dynamodb as dynamodb,
  aws_iam as iam,
  type aws_logs as logs,
  RemovalPolicy,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { feedItemKey } from '../../lambda/domain/feed-registry/feed';
import { SUMMARY_KEY_PATTERN } from '../../lambda/domain/schema/summary';
import {
  ACTIVE_INDEX,
  CHANGE_INDEX,
  EXPIRY_INDEX,
  SEARCH_INDEX,
  VENDOR_INDEXES,
} from '../../lambda/domain/schema/tables';
import { vendorItemKey } from '../../lambda/domain/schema/vendors';
import { FUNCTION_LIMITS } from '../../lambda/domain/service/limits';
import { functionEnvironment } from '../../lambda/domain/settings/environment';
import { webhookItemKey } from '../../lambda/domain/webhook-registry/endpoint';
import { linksBaseUrl, type ServiceSettings } from '../settings';
import { ApiFunction } from './api-function';
import type { DataTables } from './data-tables';

/** What the functions are built from. */
export interface ServiceFunctionsProps {
  readonly settings: ServiceSettings;
  readonly data: DataTables;
}

const entry = (path: string) => new URL(`../../lambda/${path}`, import.meta.url).pathname;

/**
 * The functions of the service: the TOKEN authorizer, which may only read the vendors table; the listing, which may
 * only Query the active index, BatchGetItem vacancies and read the vendors' summaries; and the expiry job, which may read and put vacancies by
 * id, Query the expiry and active indexes, list vendors and keep their summaries — and nothing else of the vendors
 * table; and the inbox's import, which may do what the ops CLI's import does — read vendor items and summaries, read and
 * put vacancies by id, keep summaries, and Query the change index for a snapshot (its S3 permissions are the inbox's,
 * `inbox.ts`); and the feeds' builder, which may read what a listing reads, a vendor's item and feeds, and record a
 * build on a feed (its S3 and Scheduler permissions are the feeds', `feeds.ts`); and the MCP server, which may read
 * exactly what the listing reads. Memory and timeouts are their own limits
 * (`FUNCTION_LIMITS`), which the local server enforces too.
 */
export class ServiceFunctions extends Construct {
  public readonly authorizer: ApiFunction;
  public readonly listing: ApiFunction;
  public readonly mcp: ApiFunction;
  public readonly expiry: ApiFunction;
  public readonly inbox: ApiFunction;
  public readonly webhooks: ApiFunction;
  public readonly feeds: ApiFunction;

  constructor(scope: Construct, id: string, { settings, data }: ServiceFunctionsProps) {
    super(scope, id);
    const tables = { vacancies: data.vacancies.tableName, vendors: data.vendors.tableName };
    // The links' base: `publicBaseUrl`, or the stack's custom domain.
    const deployed = { ...settings, publicBaseUrl: linksBaseUrl(settings) };
    // Unless the monitoring is detailed, the functions' metrics are off (Powertools' own switch): each would be a
    // custom metric billed monthly; the listing's figures stay in its one log line per request.
    const bundle = { metrics: settings.monitoring === 'detailed' };
    const metricsOff: Record<string, string> = bundle.metrics ? {} : { POWERTOOLS_METRICS_DISABLED: 'true' };
    const environmentOf = (name: Parameters<typeof functionEnvironment>[0]) => ({
      ...functionEnvironment(name, deployed, tables),
      ...metricsOff,
    });
    const index = (table: dynamodb.ITable, name: string) => `${table.tableArn}/index/${name}`;
    // Of the vendors table, only the items whose partition keys match `leadingKeys` (never a key's, unless named).
    const vendorsItems = (actions: string[], leadingKeys: string[]) =>
      new iam.PolicyStatement({
        actions,
        resources: [data.vendors.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeys } },
      });
    const common = {
      logRetention: settings.logRetentionDays as logs.RetentionDays,
      logRemovalPolicy: settings.destroyOnRemoval ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
      tracing: settings.tracing,
      // Metrics, bundled and on, only under the detailed profile (lambda/domain/service/metrics.ts).
      bundle,
    };

    this.authorizer = new ApiFunction(this, 'Authorizer', {
      ...common,
      entry: entry('functions/authorizer/handler.ts'),
      description: 'Vendor Vacancy API: resolves a Bearer API key to its vendor',
      limits: FUNCTION_LIMITS.authorizer,
      environment: environmentOf('authorizer'),
      statements: [
        new iam.PolicyStatement({ actions: ['dynamodb:GetItem'], resources: [data.vendors.tableArn] }),
      ],
    });

    // Exactly the reads of a listing (docs/design.md#how-a-listing-reads): Query on the active index (the search
    // index, docs/design.md#search), BatchGetItem of a page, GetItem of the vendor's summary — never of a key or a
    // vendor item. The MCP server's tools answer from the listing's code, and read as it does.
    const listingReads = () => [
      new iam.PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [ACTIVE_INDEX.name, SEARCH_INDEX.name].map((name) => index(data.vacancies, name)),
      }),
      new iam.PolicyStatement({ actions: ['dynamodb:BatchGetItem'], resources: [data.vacancies.tableArn] }),
      vendorsItems(['dynamodb:GetItem'], [SUMMARY_KEY_PATTERN]),
    ];

    this.listing = new ApiFunction(this, 'Listing', {
      ...common,
      entry: entry('functions/vacancies/handler.ts'),
      description: 'Vendor Vacancy API: GET /vendor/vacancies',
      limits: FUNCTION_LIMITS.listing,
      environment: environmentOf('listing'),
      statements: listingReads(),
    });

    this.mcp = new ApiFunction(this, 'Mcp', {
      ...common,
      entry: entry('functions/mcp/handler.ts'),
      description: 'Vendor Vacancy API: POST /mcp, the MCP server over the listing',
      limits: FUNCTION_LIMITS.mcp,
      environment: environmentOf('mcp'),
      statements: listingReads(),
    });

    this.expiry = new ApiFunction(this, 'Expiry', {
      ...common,
      entry: entry('functions/expiry/handler.ts'),
      description: 'Vendor Vacancy API: records expired vacancies, and counts untrusted summaries anew',
      limits: FUNCTION_LIMITS.expiry,
      environment: environmentOf('expiry'),
      statements: [
        // What expired, by the expiry index; and a vendor's active index, to count it anew.
        new iam.PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [index(data.vacancies, EXPIRY_INDEX.name), index(data.vacancies, ACTIVE_INDEX.name)],
        }),
        // Read and write vacancies by id: each expiry is a conditional put of the item read.
        new iam.PolicyStatement({
          actions: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem'],
          resources: [data.vacancies.tableArn],
        }),
        // Every vendor, by the vendors table's index of vendor items…
        new iam.PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [index(data.vendors, VENDOR_INDEXES.byKind)],
        }),
        // …and of the vendors table, only the summaries: never a key.
        vendorsItems(
          ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
          [SUMMARY_KEY_PATTERN],
        ),
      ],
    });

    this.inbox = new ApiFunction(this, 'Inbox', {
      ...common,
      entry: entry('functions/inbox/handler.ts'),
      description: 'Vendor Vacancy API: imports the files put under incoming/ in the inbox bucket',
      limits: FUNCTION_LIMITS.inbox,
      environment: environmentOf('inbox'),
      statements: [
        // A snapshot finds the vendor's vacancies on the change index (never a Scan).
        new iam.PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [index(data.vacancies, CHANGE_INDEX.name)],
        }),
        // What is stored under the records' ids, and each write a conditional put of the item read.
        new iam.PolicyStatement({
          actions: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem'],
          resources: [data.vacancies.tableArn],
        }),
        // Whether the records' vendors exist (their vendor items, never a key)…
        vendorsItems(['dynamodb:GetItem'], [vendorItemKey('*').pk, SUMMARY_KEY_PATTERN]),
        // …and their summaries, kept under the run's lease.
        vendorsItems(['dynamodb:PutItem', 'dynamodb:UpdateItem'], [SUMMARY_KEY_PATTERN]),
      ],
    });

    this.feeds = new ApiFunction(this, 'Feeds', {
      ...common,
      entry: entry('functions/feeds/handler.ts'),
      description:
        "Vendor Vacancy API: builds vendors' feeds for job boards and search engines when they change",
      limits: FUNCTION_LIMITS.feeds,
      environment: environmentOf('feeds'),
      statements: [
        // A vendor's listable vacancies, as the listing walks them: the active index, then the items by id.
        new iam.PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [index(data.vacancies, ACTIVE_INDEX.name)],
        }),
        new iam.PolicyStatement({ actions: ['dynamodb:BatchGetItem'], resources: [data.vacancies.tableArn] }),
        // A vendor's feeds, by the vendors table's index of items by kind…
        new iam.PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [index(data.vendors, VENDOR_INDEXES.byKind)],
        }),
        // …the vendor item and a feed read, and a build recorded on its feed: never a key, a summary or an endpoint.
        vendorsItems(['dynamodb:GetItem'], [vendorItemKey('*').pk, feedItemKey('*').pk]),
        vendorsItems(['dynamodb:UpdateItem'], [feedItemKey('*').pk]),
      ],
    });

    this.webhooks = new ApiFunction(this, 'Webhooks', {
      ...common,
      entry: entry('functions/webhooks/handler.ts'),
      description: "Vendor Vacancy API: sends vendors' webhook events when their vacancies change",
      limits: FUNCTION_LIMITS.webhooks,
      environment: environmentOf('webhooks'),
      statements: [
        // A vendor's changes, on the change index.
        new iam.PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [index(data.vacancies, CHANGE_INDEX.name)],
        }),
        // A vendor's endpoints, by the vendors table's index of items by kind…
        new iam.PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [index(data.vendors, VENDOR_INDEXES.byKind)],
        }),
        // …each endpoint read and kept under its lease, and the vendor's summary read: never a key or a vendor item.
        vendorsItems(['dynamodb:GetItem'], [webhookItemKey('*').pk, SUMMARY_KEY_PATTERN]),
        vendorsItems(['dynamodb:UpdateItem'], [webhookItemKey('*').pk]),
      ],
    });
  }
}
