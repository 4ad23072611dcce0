/**
 * The endpoints' persistence (docs/design.md#webhooks): every read and write of an endpoint item — the operator's
 * (add, list, enable, disable, rotate the secret, remove: the ops CLI's, `lib/ops/webhooks.ts`, says them to the
 * operator) and the dispatch's. Each write of a delivery is conditioned on the dispatch's lease, so that two wake-ups
 * racing never send the same event at once, and one whose lease ran out cannot move an endpoint another now holds.
 */
import { randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed } from '../../platform/aws/failure';
import { queryAll } from '../../platform/dynamodb/query-all';
import { settledBefore } from '../change-feed/settle';
import { changeKey } from '../schema/change-index';
import { VENDOR_INDEXES } from '../schema/tables';
import { ITEM_KIND } from '../schema/vendors';
import { serverClock } from '../store/clock';
import { type Placed, type PlacedKind, VendorPlaces } from '../store/vendor-places';
import {
  type DisabledReason,
  type LastAttempt,
  MAX_ENDPOINTS_PER_VENDOR,
  newWebhookSecret,
  type PendingEvent,
  PREVIOUS_SECRET_MS,
  type WebhookEndpoint,
  webhookItemKey,
} from './endpoint';
import { DispatchLeaseLostError } from './errors';

/** What taking an endpoint's lease came to: the endpoint, or why not (held: by whom until when, ms). */
export type LeaseTaken =
  | { readonly taken: true; readonly endpoint: WebhookEndpoint }
  | {
      readonly taken: false;
      readonly reason: 'held';
      readonly endpoint: WebhookEndpoint;
      readonly until: number;
    }
  | { readonly taken: false; readonly reason: 'not enabled' };

const names = {
  '#status': 'status',
  '#lease': 'leaseUntil',
  '#holder': 'leaseHolder',
  '#rerun': 'rerun',
} as const;

/** A vendor's places for endpoints (`webhook-places#<vendor>`): `MAX_ENDPOINTS_PER_VENDOR`, whatever the timing. */
const ENDPOINT_PLACES: PlacedKind = {
  places: 'webhook-places',
  kind: ITEM_KIND.webhook,
  idAttribute: 'endpointId',
  itemKey: webhookItemKey,
  max: MAX_ENDPOINTS_PER_VENDOR,
};

/** The endpoint items of one vendors table. */
export class EndpointStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly vendorsTable: string,
  ) {}

  /**
   * Adds an endpoint for a vendor: a place taken among its `MAX_ENDPOINTS_PER_VENDOR` (atomically:
   * `domain/store/vendor-places.ts`), a new secret, and its position the moment it was added by the service's clock —
   * DynamoDB's, as bounded from its answers (`domain/store/clock.ts`), whatever the operator's clock says
   * (`localNow`, which tests skew). The first event has the changes after it, and those of the few seconds before.
   * The URL is the caller's to check (`webhookUrlProblem`).
   */
  async add(
    vendorId: string,
    url: string,
    localNow: () => number = Date.now,
  ): Promise<Placed<WebhookEndpoint>> {
    const now = serverClock(this.client, localNow);
    const placed = await new VendorPlaces(this.client, this.vendorsTable, ENDPOINT_PLACES).add(
      vendorId,
      () => `ep_${randomBytes(9).toString('base64url')}`,
      (endpointId): WebhookEndpoint => {
        // Read after DynamoDB has answered: the service's time.
        const at = now();
        return {
          endpointId,
          vendorId,
          url,
          secret: newWebhookSecret(),
          status: 'enabled',
          // The moment it was added, less the index's settle window: a change written just after the add may carry
          // a stamp a second earlier (domain/store/clock.ts). It is sent rather than missed — at least once, as a sync
          // delivers.
          position: changeKey(settledBefore(at), 0),
          createdAt: at,
        };
      },
      now,
    );
    return placed as Placed<WebhookEndpoint>;
  }

  /** Removes an endpoint and frees its place; undefined when there was none. */
  async remove(endpointId: string): Promise<WebhookEndpoint | undefined> {
    return (await new VendorPlaces(this.client, this.vendorsTable, ENDPOINT_PLACES).remove(endpointId)) as
      | WebhookEndpoint
      | undefined;
  }

  /** Enables an endpoint: it resumes from its position, the first change it was not delivered. */
  enable(endpointId: string): Promise<WebhookEndpoint | undefined> {
    return this.update(endpointId, {
      UpdateExpression: 'SET #status = :enabled REMOVE disabledReason, disabledAt, pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':enabled': 'enabled' },
    });
  }

  /** Disables an endpoint by the operator's hand; nothing is sent to it until it is enabled again. */
  disableByOperator(endpointId: string, now = Date.now()): Promise<WebhookEndpoint | undefined> {
    return this.update(endpointId, {
      UpdateExpression: 'SET #status = :disabled, disabledReason = :reason, disabledAt = :at REMOVE pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':disabled': 'disabled',
        ':reason': 'disabled by an operator',
        ':at': now,
      },
    });
  }

  /** A new secret; the previous one keeps signing every delivery, next to it, for 24 hours. */
  rotateSecret(endpointId: string, now = Date.now()): Promise<WebhookEndpoint | undefined> {
    return this.update(endpointId, {
      UpdateExpression: 'SET previousSecret = secret, previousSecretUntil = :until, secret = :secret',
      ExpressionAttributeValues: { ':until': now + PREVIOUS_SECRET_MS, ':secret': newWebhookSecret() },
    });
  }

  /** An update of an existing endpoint: the endpoint as it now is, or undefined when there is none. */
  private async update(
    endpointId: string,
    update: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key' | 'ConditionExpression'>,
  ): Promise<WebhookEndpoint | undefined> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.vendorsTable,
          Key: webhookItemKey(endpointId),
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_NEW',
          ...update,
        }),
      );
      return Attributes as WebhookEndpoint;
    } catch (error) {
      if (isConditionFailed(error)) return undefined;
      throw error;
    }
  }

  /** One endpoint, read strongly; undefined when there is none. */
  async get(endpointId: string): Promise<WebhookEndpoint | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.vendorsTable, Key: webhookItemKey(endpointId), ConsistentRead: true }),
    );
    return Item as WebhookEndpoint | undefined;
  }

  /** A vendor's endpoints (the `by-kind` index: one Query, whatever else the vendor has). */
  async ofVendor(vendorId: string): Promise<WebhookEndpoint[]> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: this.vendorsTable,
        IndexName: VENDOR_INDEXES.byKind,
        KeyConditionExpression: 'kind = :kind AND vendorId = :vendorId',
        ExpressionAttributeValues: { ':kind': ITEM_KIND.webhook, ':vendorId': vendorId },
      }),
    );
    return (Items ?? []) as WebhookEndpoint[];
  }

  /** Every endpoint of every vendor. */
  async all(): Promise<WebhookEndpoint[]> {
    return (await queryAll(this.client, {
      TableName: this.vendorsTable,
      IndexName: VENDOR_INDEXES.byKind,
      KeyConditionExpression: 'kind = :kind',
      ExpressionAttributeValues: { ':kind': ITEM_KIND.webhook },
    })) as unknown as WebhookEndpoint[];
  }

  /** A vendor's endpoints, or every vendor's, oldest first. */
  async list(vendorId?: string): Promise<WebhookEndpoint[]> {
    const endpoints = vendorId === undefined ? await this.all() : await this.ofVendorAll(vendorId);
    return endpoints.sort((a, b) => a.createdAt - b.createdAt);
  }

  /** A vendor's endpoints, every page of them. */
  private async ofVendorAll(vendorId: string): Promise<WebhookEndpoint[]> {
    return (await queryAll(this.client, {
      TableName: this.vendorsTable,
      IndexName: VENDOR_INDEXES.byKind,
      KeyConditionExpression: 'kind = :kind AND vendorId = :vendorId',
      ExpressionAttributeValues: { ':kind': ITEM_KIND.webhook, ':vendorId': vendorId },
    })) as unknown as WebhookEndpoint[];
  }

  /**
   * Takes the lease of an enabled endpoint until `until` (ms) for `holder`, unless another holds one that has not
   * run out at `now`. Taking it clears the endpoint's `rerun` flag: the holder reads everything from here on.
   */
  async takeDispatchLease(
    endpointId: string,
    holder: string,
    now: number,
    until: number,
  ): Promise<LeaseTaken> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.vendorsTable,
          Key: webhookItemKey(endpointId),
          UpdateExpression: 'SET #lease = :until, #holder = :holder REMOVE #rerun',
          ConditionExpression:
            'attribute_exists(pk) AND #status = :enabled AND (attribute_not_exists(#lease) OR #lease < :now)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: {
            ':until': until,
            ':holder': holder,
            ':enabled': 'enabled',
            ':now': now,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { taken: true, endpoint: Attributes as WebhookEndpoint };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      const endpoint = await this.get(endpointId);
      return endpoint?.status === 'enabled'
        ? {
            taken: false,
            reason: 'held',
            endpoint,
            until: (endpoint as { leaseUntil?: number }).leaseUntil ?? now,
          }
        : { taken: false, reason: 'not enabled' };
    }
  }

  /**
   * Tells the holder of a live lease to read again before it lets go (a wake-up that found the endpoint busy);
   * false when no lease is live at `now` (the caller then takes it itself).
   */
  async flagRerun(endpointId: string, now: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.vendorsTable,
          Key: webhookItemKey(endpointId),
          UpdateExpression: 'SET #rerun = :true',
          ConditionExpression: 'attribute_exists(#lease) AND #lease >= :now',
          ExpressionAttributeNames: { '#lease': names['#lease'], '#rerun': names['#rerun'] },
          ExpressionAttributeValues: { ':true': true, ':now': now },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }

  /** An update of the holder's, refused (`DispatchLeaseLostError`) when its lease is no longer its own. */
  private async asHolder(
    endpointId: string,
    holder: string,
    update: string,
    values: Record<string, unknown>,
    extraNames: Record<string, string> = {},
  ): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.vendorsTable,
          Key: webhookItemKey(endpointId),
          UpdateExpression: update,
          ConditionExpression: '#holder = :holder',
          ExpressionAttributeNames: { '#holder': names['#holder'], ...extraNames },
          ExpressionAttributeValues: { ':holder': holder, ...values },
        }),
      );
    } catch (error) {
      if (isConditionFailed(error)) throw new DispatchLeaseLostError(endpointId);
      throw error;
    }
  }

  /** Keeps the event being sent (so that a retry sends the same), and renews the lease. */
  savePending(endpointId: string, holder: string, pending: PendingEvent, until: number): Promise<void> {
    return this.asHolder(
      endpointId,
      holder,
      'SET pending = :pending, #lease = :until',
      {
        ':pending': pending,
        ':until': until,
      },
      { '#lease': names['#lease'] },
    );
  }

  /** The event was delivered: the position moves past its changes, and the lease is renewed. */
  delivered(
    endpointId: string,
    holder: string,
    through: Uint8Array,
    last: LastAttempt,
    until: number,
  ): Promise<void> {
    return this.asHolder(
      endpointId,
      holder,
      'SET #position = :through, lastAttempt = :last, #lease = :until REMOVE pending',
      { ':through': through, ':last': last, ':until': until },
      { '#position': 'position', '#lease': names['#lease'] },
    );
  }

  /** The attempt failed: the event stays, due again at `pending.dueAt`. */
  failed(endpointId: string, holder: string, pending: PendingEvent, last: LastAttempt): Promise<void> {
    return this.asHolder(endpointId, holder, 'SET pending = :pending, lastAttempt = :last', {
      ':pending': pending,
      ':last': last,
    });
  }

  /**
   * Disables the endpoint: its retries ran out, or it answered 410. Its position stays where the last delivery left
   * it, so that `webhook enable` resumes from the first change not delivered; the event is dropped (enabling builds
   * it again from the position, under a new id).
   */
  disable(endpointId: string, holder: string, reason: DisabledReason, last: LastAttempt): Promise<void> {
    return this.asHolder(
      endpointId,
      holder,
      'SET #status = :disabled, disabledReason = :reason, disabledAt = :at, lastAttempt = :last REMOVE pending',
      { ':disabled': 'disabled', ':reason': reason, ':at': last.at, ':last': last },
      { '#status': names['#status'] },
    );
  }

  /**
   * Lets go of the lease — unless a wake-up flagged the endpoint meanwhile (`flagRerun`): then the flag is cleared,
   * the lease kept, and `false` returned, so that the holder reads again what that wake-up was for.
   */
  async release(endpointId: string, holder: string): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.vendorsTable,
          Key: webhookItemKey(endpointId),
          UpdateExpression: 'REMOVE #lease, #holder',
          ConditionExpression: '#holder = :holder AND attribute_not_exists(#rerun)',
          ExpressionAttributeNames: {
            '#lease': names['#lease'],
            '#holder': names['#holder'],
            '#rerun': names['#rerun'],
          },
          ExpressionAttributeValues: { ':holder': holder },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      await this.asHolder(endpointId, holder, 'REMOVE #rerun', {}, { '#rerun': names['#rerun'] });
      return false;
    }
  }
}
