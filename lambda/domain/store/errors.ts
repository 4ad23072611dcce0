/**
 * The store's error (docs/design.md#the-summary): a writer that lost its lease on a vendor's summary.
 */

/**
 * A writer lost its lease on a vendor's summary — it ran out while DynamoDB was slow, and a recount took over (or
 * the item cannot grow past 400 KB) — so it writes no more of that vendor's vacancies: their counts could no longer
 * be kept. What it wrote is in the table; the summary waits for the recount. Thrown by the store
 * (`summary-store.ts`) when an update under the lease is refused, and by the writers' leases (`summary-leases.ts`)
 * on every write for the vendor after that. The import stops and says so in one line, listing the records not
 * written; running the same work again completes it. (The webhooks' lease is another:
 * `functions/webhooks/errors.ts`'s `DispatchLeaseLostError`.)
 */
export class SummaryLeaseLostError extends Error {
  override readonly name = 'SummaryLeaseLostError';
  constructor(readonly vendorId: string) {
    super(`lost the lease on the summary of vendor ${vendorId}`);
  }
}
