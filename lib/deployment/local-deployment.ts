/**
 * What the local server tells the tools about itself, as a deployed stack does with its outputs: the settings the
 * ops CLI must agree with (the zone `created_at` without an offset is read in, the rate tiers a vendor may be on, the
 * language a feed has unless told) and where its feeds are (their base URL, the server's own address, and the folder
 * of their files). The server records them in its vendors table when it starts; `vacancy-admin --endpoint` reads
 * them there.
 */
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Locale } from '../../lambda/domain/schema/vacancy';
import { LOCAL_DEPLOYMENT_ITEM_KEY } from '../../lambda/domain/schema/vendors';
import type { RateTier } from '../../lambda/domain/settings/rate-tiers';
import type { ServiceSettings } from '../settings';

/** Where the local server's feeds are: the base of their URLs (its own address) and the folder of their files. */
export interface LocalFeeds {
  readonly base: string;
  readonly folder: string;
}

/** What the local server records for the ops CLI. */
export interface LocalDeployment
  extends Pick<ServiceSettings, 'serviceTimeZone' | 'rateTiers' | 'defaultRateTier'> {
  /** Absent in what a server from before feeds recorded, as are `feeds`. */
  readonly defaultLocale?: Locale;
  /** Absent in what a server from before pay and place recorded: the import's warnings go by it. */
  readonly jobCountry?: string;
  readonly feeds?: LocalFeeds;
}

/** Records the local server's settings in its vendors table (replacing what an earlier start recorded). */
export async function recordLocalDeployment(
  client: DynamoDBDocumentClient,
  vendorsTable: string,
  { serviceTimeZone, rateTiers, defaultRateTier, defaultLocale, jobCountry, feeds }: LocalDeployment,
): Promise<void> {
  await client.send(
    new PutCommand({
      TableName: vendorsTable,
      Item: {
        ...LOCAL_DEPLOYMENT_ITEM_KEY,
        serviceTimeZone,
        rateTiers,
        defaultRateTier,
        ...(defaultLocale && { defaultLocale }),
        ...(jobCountry && { jobCountry }),
        ...(feeds && { feeds }),
      },
    }),
  );
}

/** The settings a local server recorded in these tables, or undefined when none has run on them. */
export async function readLocalDeployment(
  client: DynamoDBDocumentClient,
  vendorsTable: string,
): Promise<LocalDeployment | undefined> {
  const { Item } = await client.send(
    new GetCommand({ TableName: vendorsTable, Key: LOCAL_DEPLOYMENT_ITEM_KEY, ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return {
    serviceTimeZone: Item.serviceTimeZone as string,
    rateTiers: Item.rateTiers as Record<string, RateTier>,
    defaultRateTier: Item.defaultRateTier as string,
    ...(Item.defaultLocale && { defaultLocale: Item.defaultLocale as Locale }),
    ...(Item.jobCountry && { jobCountry: Item.jobCountry as string }),
    ...(Item.feeds && { feeds: Item.feeds as LocalFeeds }),
  };
}
