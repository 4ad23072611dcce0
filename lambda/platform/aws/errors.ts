/**
 * The errors of the AWS platform code (docs/design.md#errors): what our own code throws when an AWS service fails
 * it in a way the SDK does not turn into an error of its own.
 */

/**
 * A service kept refusing within the bounds of our own retries — BatchGetItem left keys unprocessed
 * round after round (`platform/dynamodb/batch-get.ts`). `awsFailure` calls it `unavailable`, as it would a
 * throttled call: an API answers the 503 with `Retry-After`, the ops CLI says to try again.
 */
export class UnavailableError extends Error {
  override readonly name = 'UnavailableError';
}
