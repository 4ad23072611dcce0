/**
 * The events (docs/api.md#webhooks): `vacancies.changed`, thin on purpose — which vacancies changed, to what status
 * and when, and the sync URL that reads them; or, when the changes an endpoint had still to receive were purged,
 * `resync_required`. And `webhook.test`, which `vacancy-admin webhook test` sends.
 */
import { randomBytes } from 'node:crypto';
import type { StoredStatus } from '../../domain/schema/vacancy';
import { LISTING_PATH } from '../../domain/service/routes';
import { formatRfc3339 } from '../../platform/time/rfc3339';

export const EVENT_TYPES = { changed: 'vacancies.changed', test: 'webhook.test' } as const;

/** A change as an event lists it. */
export interface EventChange {
  readonly id: number;
  readonly status: StoredStatus;
  readonly updatedAt: number;
}

/** A new event id, unique per event (`msg_` as Standard Webhooks' examples). */
export const newEventId = (): string => `msg_${randomBytes(16).toString('base64url')}`;

/** The sync URL from a change on: `updated_since` its time, so the receiver reads at least what the event names. */
export function syncUrl(apiBaseUrl: string, since: number): string {
  const url = new URL(`${apiBaseUrl.replace(/\/+$/, '')}${LISTING_PATH}`);
  url.searchParams.set('updated_since', formatRfc3339(since));
  return url.toString();
}

/** The body of a `vacancies.changed` event of these changes (oldest first, 1 to 100 of them). */
export function changesEventBody(changes: readonly EventChange[], apiBaseUrl: string, now: number): string {
  return JSON.stringify({
    type: EVENT_TYPES.changed,
    timestamp: formatRfc3339(now),
    data: {
      changes: changes.map((change) => ({
        id: change.id,
        status: change.status,
        updated_at: formatRfc3339(change.updatedAt),
      })),
      sync_url: syncUrl(apiBaseUrl, (changes[0] as EventChange).updatedAt),
    },
  });
}

/** The body of the event that says: the changes were purged, sync again from 1970. */
export function resyncEventBody(now: number): string {
  return JSON.stringify({
    type: EVENT_TYPES.changed,
    timestamp: formatRfc3339(now),
    data: { resync_required: true },
  });
}

/** The body of a test event. */
export function testEventBody(endpointId: string, now: number): string {
  return JSON.stringify({
    type: EVENT_TYPES.test,
    timestamp: formatRfc3339(now),
    data: { endpoint_id: endpointId },
  });
}
