/**
 * What a failed AWS call means, decided in one place for the functions and the tools alike (docs/design.md#errors):
 * from what the SDK says of the failure — the answer's HTTP status (`$metadata.httpStatusCode`), whether the SDK
 * would retry it (`$retryable`), whose fault it is (`$fault`), the error's name and the socket's code — and never
 * from message text, which is for people.
 */
import { UnavailableError } from './errors';

/** What a failure means for the caller. */
export type AwsFailure =
  /** Retry later: throttled, a server fault, out of time, a connection lost, or an answer that is not valid. */
  | 'unavailable'
  /** A `ConditionExpression` did not hold. */
  | 'condition-failed'
  /** What the call names (a table, a stack, an API key) does not exist. */
  | 'not-found'
  /** No AWS credentials were found. */
  | 'no-credentials'
  /** The credentials may not do this, or are not valid. */
  | 'denied'
  /** The service refused the request itself (a modelled client error): retrying the same request cannot help. */
  | 'refused'
  /** Anything else: a bug. */
  | 'unexpected';

/** Throttling, by the names AWS services give it. */
const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'Throttling',
  'RequestLimitExceeded',
  'TooManyRequestsException',
]);

/** A call that ran out of time: the SDK's own attempt timeout, and the abort of a request's deadline. */
const OUT_OF_TIME = new Set(['TimeoutError', 'AbortError']);

/** Socket codes of a connection that could not be made or broke off. */
const CONNECTION_LOST = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

const NOT_FOUND = new Set(['ResourceNotFoundException', 'NotFoundException']);

const DENIED = new Set([
  'AccessDeniedException',
  'AccessDenied',
  'UnrecognizedClientException',
  'InvalidClientTokenId',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
  'ExpiredToken',
  'ExpiredTokenException',
]);

/** What the SDK attaches to an error that came from an answer (or from trying to read one). */
interface SdkErrorFields {
  readonly $fault?: 'client' | 'server';
  readonly $retryable?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: number };
  readonly $response?: unknown;
  readonly code?: unknown;
}

/** What a failed AWS call (or our own `UnavailableError`) means. */
export function awsFailure(error: unknown): AwsFailure {
  if (error instanceof UnavailableError) return 'unavailable';
  if (!(error instanceof Error)) return 'unexpected';
  const { $fault, $retryable, $metadata, $response, code } = error as Error & SdkErrorFields;
  const status = $metadata?.httpStatusCode;
  const answered = $metadata !== undefined || $response !== undefined;
  if (error.name === 'ConditionalCheckFailedException') return 'condition-failed';
  if (error.name === 'CredentialsProviderError') return 'no-credentials';
  if (
    THROTTLING.has(error.name) ||
    OUT_OF_TIME.has(error.name) ||
    $retryable !== undefined ||
    (typeof code === 'string' && CONNECTION_LOST.has(code)) ||
    $fault === 'server' ||
    (status !== undefined && (status >= 500 || status === 429))
  ) {
    return 'unavailable';
  }
  // An answer that did not parse (an HTML page, a body that is not JSON or was cut short) carries the answer but no
  // fault; one without a modelled error type is named "Unknown" by the SDK. Neither is a valid answer.
  if (answered && ($fault === undefined || error.name === 'Unknown')) return 'unavailable';
  if (NOT_FOUND.has(error.name)) return 'not-found';
  if (DENIED.has(error.name) || status === 403) return 'denied';
  if ($fault === 'client') return 'refused';
  return 'unexpected';
}

/** Whether a failure means "retry later": a 503 with `Retry-After` for a client, a stop-and-run-again for a tool. */
export const isUnavailable = (error: unknown) => awsFailure(error) === 'unavailable';

/** Whether a failure is a `ConditionExpression` that did not hold. */
export const isConditionFailed = (error: unknown) => awsFailure(error) === 'condition-failed';

/**
 * Whether a failed call may have been applied all the same: it ran out of time, lost
 * its connection, or the service failed or answered nonsense — AWS's words for a 500, "the request may or may not
 * have succeeded". A throttled call, a refused one, a failed condition were not applied.
 */
export function outcomeUnknown(error: unknown): boolean {
  return awsFailure(error) === 'unavailable' && !(error instanceof Error && THROTTLING.has(error.name));
}
