/**
 * The authorizer's errors (docs/design.md#errors): a key refused, a vendor the authorizer cannot throttle, and the
 * one failure it throws to API Gateway. Only `KeyCheckFailedError` leaves the function; the edge of the handler
 * (`factory.ts`) turns the others into it, or into API Gateway's `Unauthorized`.
 */

/**
 * The key is refused: not a Bearer header, unknown, revoked, or of a vendor that does not exist. Thrown by the
 * authorizer's decision; its edge counts it (`KeysRefused`) and throws API Gateway's `Unauthorized` instead — the
 * 401, which never says why.
 */
export class KeyRefusedError extends Error {
  override readonly name = 'KeyRefusedError';
}

/**
 * An active vendor has no usage key or tier, so its requests could not be throttled as its tier says — an
 * operator's mistake, not the caller's. Thrown by the authorizer's decision instead of an Allow; its edge logs an
 * error naming the vendor (the fix: `vacancy-admin vendor sync-usage-keys`) and fails the check
 * (`KeyCheckFailedError`), the 503.
 */
export class MissingUsageKeyError extends Error {
  override readonly name = 'MissingUsageKeyError';
  constructor(readonly vendorId: string) {
    super('The vendor has no usage key; run "vacancy-admin vendor sync-usage-keys"');
  }
}

/**
 * The key could not be checked. Thrown to API Gateway by the authorizer's edge, after it logged what failed, and by
 * its early timeout; API Gateway answers its AUTHORIZER_FAILURE response — the contract's 503 with `Retry-After` —
 * and never a 401: a good key is never called invalid. It says nothing itself: what failed is in the log line
 * before it. Its name stays `KeyCheckFailed`: Lambda writes it as the `errorType` of the invocation's error in
 * the authorizer's log.
 */
export class KeyCheckFailedError extends Error {
  override readonly name = 'KeyCheckFailed';
  constructor() {
    super('The key could not be checked');
  }
}
