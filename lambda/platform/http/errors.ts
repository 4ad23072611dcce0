/**
 * The error envelope (docs/api.md#errors), one definition for every error the service emits: the
 * handler's, the authorizer's and API Gateway's own (its gateway responses are rendered from these same
 * definitions).
 */

import { isUnavailable } from '../aws/failure';

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
  413: 'Payload Too Large.',
  422: 'The given data was invalid.',
  429: 'Too Many Requests.',
  500: 'Server Error.',
  502: 'Server Error.',
  503: 'Service Unavailable.',
} as const;

/** An HTTP status the service answers with an error envelope. */
export type ErrorStatus = keyof typeof ERROR_MESSAGES;

/** Messages per invalid input field (422 only). */
export type FieldErrors = Record<string, string[]>;

/** What an error states besides its message, between the message and the request id (a service's own fields). */
export type ErrorFields = Readonly<Record<string, string>>;

/** The body of every error response: its status, message, `errors` on a 422, an error's own fields, the request id. */
export interface ErrorEnvelope {
  status: 'error';
  message: string;
  errors?: FieldErrors;
  request_id: string;
  readonly [field: string]: unknown;
}

/** The error envelope; `errors` only when given (422), an error's own fields (`fields`) only when it has them. */
export function errorEnvelope(
  message: string,
  requestId: string,
  errors?: FieldErrors,
  fields?: ErrorFields,
): ErrorEnvelope {
  return { status: 'error', message, ...(errors && { errors }), ...fields, request_id: requestId };
}

/** Seconds a client should wait before retrying a 429 or a 503. */
export const RETRY_AFTER_SECONDS = 1;

/** `Retry-After`, on every 429 and 503. */
export const RETRY_AFTER = { 'Retry-After': String(RETRY_AFTER_SECONDS) } as const;

/**
 * An error with an HTTP status. Its message is the contract's message for the status — or one that says more about
 * what the client asked for — never internal detail. Thrown by a route (through `invalidInput`, `serviceUnavailable`
 * or with a message of its own); the error middleware (`middleware.ts`) answers it as it is — the envelope, its status
 * and its headers — and turns any other error into one first (`toHttpError`).
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(
    readonly statusCode: ErrorStatus | 410,
    readonly details: {
      readonly errors?: FieldErrors;
      readonly headers?: Readonly<Record<string, string>>;
      /** A message that says more than the status's own. */
      readonly message?: string;
      /** What the envelope states besides the message. */
      readonly fields?: ErrorFields;
      /** The underlying failure, for the logs only. */
      readonly cause?: unknown;
    } = {},
  ) {
    super(details.message ?? (statusCode === 410 ? 'Gone.' : ERROR_MESSAGES[statusCode]), {
      cause: details.cause,
    });
  }
}

/** 422 naming every invalid field. */
export const invalidInput = (errors: FieldErrors) => new HttpError(422, { errors });

/** 503: DynamoDB throttles, fails, or does not answer within the request's time; the client should retry. */
export const serviceUnavailable = (cause?: unknown) => new HttpError(503, { headers: RETRY_AFTER, cause });

/**
 * The HTTP error a failure stands for: an `HttpError` as it is; DynamoDB unavailable, throttling, or out of
 * time, a 503; anything else — a bug — a 500 that says nothing more.
 */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (isUnavailable(error)) return serviceUnavailable(error);
  return new HttpError(500, { cause: error });
}

/** A REST proxy response of the service. */
export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** The response of an HTTP error: the envelope, the error headers, its own headers, the request id. */
export function errorResponse(error: HttpError, requestId: string): HttpResponse {
  return {
    statusCode: error.statusCode,
    headers: { ...ERROR_HEADERS, ...error.details.headers, 'X-Request-Id': requestId },
    body: JSON.stringify(errorEnvelope(error.message, requestId, error.details.errors, error.details.fields)),
  };
}
