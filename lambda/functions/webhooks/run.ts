/**
 * One run of the webhooks function (docs/design.md#webhooks): what woke it — a batch of the vacancies table's stream
 * (the vendors whose vacancies changed), a one-time schedule (an endpoint whose retry is due), or the CLI (a vendor
 * whose endpoint was enabled) — dispatched; then the wake-ups due within the run, waited for in it.
 */

import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { streamVendors } from '../../domain/change-feed/stream-vendors';
import { type Dispatcher, type DispatchReport, sumReports } from './dispatcher';
import { delayUntil, type InRunWakes, nextInRunWake } from './wake-up';

/** What invokes the function. */
export type WebhooksEvent =
  | DynamoDBStreamEvent
  | { readonly endpointId: string }
  | { readonly vendorId: string };

export interface RunDependencies {
  readonly dispatcher: Dispatcher;
  readonly wakes: InRunWakes;
  /** Milliseconds the run may still use (its deadline less a reserve). */
  readonly timeLeft: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Schedules the wake-ups the run could not wait for. */
  readonly schedule: (endpointId: string, at: number) => Promise<void>;
  readonly now?: () => number;
}

const isStream = (event: WebhooksEvent): event is DynamoDBStreamEvent => 'Records' in event;

/** Runs what the event asks, then the wake-ups due in the run; the stream's failed vendors are reported. */
export async function runWebhooks(
  event: WebhooksEvent,
  deps: RunDependencies,
): Promise<{ report: DispatchReport; response?: DynamoDBBatchResponse }> {
  const now = deps.now ?? Date.now;
  const reports: DispatchReport[] = [];
  let response: DynamoDBBatchResponse | undefined;
  if (isStream(event)) {
    const failures: { itemIdentifier: string }[] = [];
    for (const [vendorId, first] of streamVendors(event)) {
      try {
        reports.push(await deps.dispatcher.dispatchVendor(vendorId));
      } catch {
        failures.push({ itemIdentifier: first });
      }
    }
    response = { batchItemFailures: failures };
  } else if ('endpointId' in event) reports.push(await deps.dispatcher.dispatchEndpoint(event.endpointId));
  else reports.push(await deps.dispatcher.dispatchVendor(event.vendorId));

  // The wake-ups due within the run, earliest first, while there is time for them.
  for (
    let next = nextInRunWake(deps.wakes, now(), deps.timeLeft());
    next;
    next = nextInRunWake(deps.wakes, now(), deps.timeLeft())
  ) {
    deps.wakes.delete(next.endpointId);
    await deps.sleep(delayUntil(now(), next.dueAt));
    reports.push(await deps.dispatcher.dispatchEndpoint(next.endpointId));
  }
  for (const [endpointId, at] of deps.wakes) await deps.schedule(endpointId, at);
  deps.wakes.clear();

  return { report: sumReports(reports), ...(response && { response }) };
}
