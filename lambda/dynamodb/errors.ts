/** What a DynamoDB failure means for the caller: retry later (503), a refused condition, or a bug (500). */

/** DynamoDB could not serve a read in time: throttled, or unavailable, after every retry. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/**
 * Names of the errors that mean "not now": DynamoDB's throttling, the SDK's own retry quota and timeouts, and
 * the abort of a call whose request ran out of time (`deadline.ts`).
 */
const UNAVAILABLE_ERRORS: ReadonlySet<string> = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TimeoutError',
  'AbortError',
]);

/** Error codes of a connection that could not be made or broke off. */
const CONNECTION_ERRORS: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * Whether an error means "DynamoDB is throttling or unavailable" — a reason to answer 503 with
 * `Retry-After`, or for a tool to stop and be run again — as opposed to a bug or a bad request.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const { $fault, code } = error as { $fault?: string; code?: string };
  // Errors from the SDK carry `$fault`: "server" for DynamoDB's 5xx (InternalServerError, ServiceUnavailable).
  return (
    UNAVAILABLE_ERRORS.has(error.name) ||
    $fault === 'server' ||
    (code !== undefined && CONNECTION_ERRORS.has(code))
  );
}

/** Whether an error is DynamoDB's answer to a failed `ConditionExpression`. */
export function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}
