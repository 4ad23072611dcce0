/**
 * The webhook endpoints' errors (docs/design.md#webhooks): a dispatch whose lease on an endpoint ran out, and a host a
 * webhook may not be sent to.
 */

/**
 * The dispatch's lease on a webhook endpoint is no longer its own: it ran out, and another dispatch took it. Thrown
 * by the endpoints' persistence (`endpoint-store.ts`) when an update conditioned on the holder is refused; the
 * dispatcher stops working on that endpoint — the new holder sends what is left. (A writer's lease on a vendor's
 * summary is another: `domain/store/errors.ts`'s `SummaryLeaseLostError`.)
 */
export class DispatchLeaseLostError extends Error {
  override readonly name = 'DispatchLeaseLostError';
  constructor(readonly endpointId: string) {
    super(`the lease on webhook endpoint ${endpointId} is no longer held`);
  }
}

/**
 * A host a webhook may not be sent to: it resolves to no address, to what is not an address, or to an address that
 * is not public — the message names the address and its block (docs/design.md#ssrf). Thrown by `checkedAddress`
 * before a delivery connects; the delivery records the attempt as failed, `refused: <message>`, and connects to
 * nothing.
 */
export class NonPublicAddressError extends Error {
  override readonly name = 'NonPublicAddressError';
}
