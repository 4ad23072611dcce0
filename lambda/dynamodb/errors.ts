/** What a DynamoDB failure means for the caller: retry later (503), a refused condition, or a bug (500). */

/** DynamoDB could not serve a read in time: throttled, or unavailable, after every retry. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/** Throttling error names of DynamoDB and of the SDK's own retry quota and timeouts. */
const THROTTLING_ERRORS: ReadonlySet<string> = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TimeoutError',
]);

/**
 * Whether an error means "DynamoDB is throttling or unavailable" — a reason to answer 503 with
 * `Retry-After`, or for a tool to stop and be run again — as opposed to a bug or a bad request.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  // Errors from the SDK carry `$fault`: "server" for DynamoDB's 5xx (InternalServerError, ServiceUnavailable).
  return THROTTLING_ERRORS.has(error.name) || (error as { $fault?: string }).$fault === 'server';
}

/** Whether an error is DynamoDB's answer to a failed `ConditionExpression`. */
export function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}
