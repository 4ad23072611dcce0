/**
 * What the local server tells the tools about itself, as a deployed stack does with its outputs: the settings the
 * ops CLI must agree with (the zone `created_at` without an offset is read in, the rate tiers a vendor may be on).
 * The server records them in its vendors table when it starts; `vacancy-admin --endpoint` reads them there.
 */
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_DEPLOYMENT_ITEM_KEY } from '../../lambda/domain/schema/vendors';
import type { RateTier } from '../../lambda/domain/settings/rate-tiers';
import type { ServiceSettings } from '../settings';

/** The local server's settings that the ops CLI uses. */
export type LocalDeployment = Pick<ServiceSettings, 'serviceTimeZone' | 'rateTiers' | 'defaultRateTier'>;

/** Records the local server's settings in its vendors table (replacing what an earlier start recorded). */
export async function recordLocalDeployment(
  client: DynamoDBDocumentClient,
  vendorsTable: string,
  { serviceTimeZone, rateTiers, defaultRateTier }: LocalDeployment,
): Promise<void> {
  await client.send(
    new PutCommand({
      TableName: vendorsTable,
      Item: { ...LOCAL_DEPLOYMENT_ITEM_KEY, serviceTimeZone, rateTiers, defaultRateTier },
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
  };
}
