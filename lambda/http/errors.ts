/**
 * The error envelope of CONTRACT §3, one definition for every error the service emits: the handler's, the
 * authorizer's and API Gateway's own (its gateway responses are rendered from these same definitions).
 */

/** Media type of every body the service sends. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Headers of every error response, the handler's and API Gateway's alike: JSON, never cached. */
export const ERROR_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': JSON_CONTENT_TYPE,
  'Cache-Control': 'no-store',
};

/** The message of each error status. A 401 never says why (missing, malformed, unknown or revoked key). */
export const ERROR_MESSAGES = {
  400: 'Bad Request.',
  401: 'Unauthenticated.',
  403: 'Forbidden.',
  404: 'Not Found.',
  405: 'Method Not Allowed.',
  422: 'The given data was invalid.',
  429: 'Too Many Requests.',
  500: 'Server Error.',
  503: 'Service Unavailable.',
} as const;

/** An HTTP status the service answers with an error envelope. */
export type ErrorStatus = keyof typeof ERROR_MESSAGES;

/** Messages per invalid input field (422 only). */
export type FieldErrors = Record<string, string[]>;

/** The body of every error response. */
export interface ErrorEnvelope {
  status: 'error';
  message: string;
  errors?: FieldErrors;
  request_id: string;
}

/** The error envelope; `errors` only when given (422). */
export function errorEnvelope(message: string, requestId: string, errors?: FieldErrors): ErrorEnvelope {
  return { status: 'error', message, ...(errors && { errors }), request_id: requestId };
}

/** Seconds a client should wait before retrying a 429 or 503. */
export const RETRY_AFTER_SECONDS = 1;

/**
 * An error with an HTTP status, in the shape `@middy/http-error-handler` expects (`statusCode`, `expose`,
 * `headers`). Its message is the contract's message for the status, never internal detail.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly expose = true;

  constructor(
    readonly statusCode: ErrorStatus,
    readonly details: {
      readonly errors?: FieldErrors;
      readonly headers?: Record<string, string>;
      /** The underlying failure, for the logs only. */
      readonly cause?: unknown;
    } = {},
  ) {
    super(ERROR_MESSAGES[statusCode], { cause: details.cause });
  }

  /** Headers the response must carry (`Retry-After`, `Allow`, …). */
  get headers(): Record<string, string> {
    return this.details.headers ?? {};
  }
}

/** 422 naming every invalid field. */
export const invalidInput = (errors: FieldErrors) => new HttpError(422, { errors });

/** 503 when DynamoDB throttles or is unavailable after every retry. */
export const serviceUnavailable = (cause?: unknown) =>
  new HttpError(503, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) }, cause });
