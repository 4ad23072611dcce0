/**
 * A webhook endpoint, the record (docs/design.md#webhooks): one item of the vendors table per endpoint, holding
 * everything its deliveries need — the URL and secrets, its position in the vendor's change index (the last change
 * delivered), the event being delivered while it is, and the lease of the one dispatch that may deliver it. Its
 * persistence is `endpoint-store.ts`; the dispatch built on it, `dispatcher.ts`.
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { addressRefusal, describeRefusal } from './public-address';

/** Key of an endpoint's item. */
export const webhookItemKey = (endpointId: string) => ({ pk: `webhook#${endpointId}` });

/** Endpoints a vendor may have (docs/api.md#webhooks). */
export const MAX_ENDPOINTS_PER_VENDOR = 5;

/** The prefix of an endpoint's secret (Standard Webhooks): `whsec_`, then the secret's bytes in base64. */
export const SECRET_PREFIX = 'whsec_';

/** A new secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks allows 24 to 64). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** Changes in one event, at most. */
export const MAX_CHANGES_PER_EVENT = 100;

/** How long after a rotation the previous secret still signs every delivery (ms). */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

export const ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

/** Why an endpoint was disabled: its retries ran out, it answered 410 Gone, or an operator disabled it. */
export type DisabledReason = 'retries exhausted' | 'gone (410)' | 'disabled by an operator';

/** The event an endpoint is being sent, kept as sent so that every retry sends the same id and body. */
export interface PendingEvent {
  readonly id: string;
  readonly body: string;
  /** The change key of its last change: the endpoint's position once it is delivered. */
  readonly through: Uint8Array;
  /** Attempts made so far. */
  readonly attempts: number;
  /** When the next attempt is due (ms). */
  readonly dueAt: number;
}

/** The last attempt of a delivery, for `webhook list`. */
export interface LastAttempt {
  readonly at: number;
  /** The HTTP status, or what went wrong before one (`timeout`, `refused: …`, `connection failed`). */
  readonly outcome: string;
}

/** An endpoint as stored. */
export interface WebhookEndpoint {
  readonly endpointId: string;
  readonly vendorId: string;
  readonly url: string;
  /** `whsec_` and the base64 of its random bytes; never printed after `add` and `rotate-secret`, never logged. */
  readonly secret: string;
  /** The secret before the last rotation, which also signs until `previousSecretUntil` (ms). */
  readonly previousSecret?: string;
  readonly previousSecretUntil?: number;
  readonly status: EndpointStatus;
  readonly disabledReason?: DisabledReason;
  readonly disabledAt?: number;
  /** The change key of the last change delivered (at first: the moment the endpoint was added). */
  readonly position: Uint8Array;
  readonly pending?: PendingEvent;
  readonly lastAttempt?: LastAttempt;
  readonly createdAt: number;
}

/** The secrets that sign a delivery at `now`: the current one, and the previous one for a day after a rotation. */
export function signingSecrets(endpoint: WebhookEndpoint, now: number): string[] {
  return endpoint.previousSecret && (endpoint.previousSecretUntil ?? 0) > now
    ? [endpoint.secret, endpoint.previousSecret]
    : [endpoint.secret];
}

/** Whether URLs may be `http://` on loopback: only in the local server, so that receivers can be tested. */
export interface UrlRules {
  readonly allowLoopbackHttp: boolean;
}

/** The longest URL an endpoint may have, in characters, as given and as sent (docs/api.md#webhooks). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** The lowest port an endpoint's URL may name but 443: the unprivileged ports, 1024–65535 (docs/api.md#webhooks). */
export const MIN_WEBHOOK_PORT = 1024;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);

/** Whether a URL is `http://127.0.0.1:<port>` or `http://localhost:<port>` (allowed by the local server only). */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.port !== '';
}

/** Whether a host name is `localhost` or under it, trailing dots aside (RFC 6761 §6.3: it is always loopback). */
const isLocalhostName = (hostname: string) => {
  const name = hostname.replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
};

/**
 * Why a URL may not be an endpoint's, in one line; undefined when it may. At most `MAX_WEBHOOK_URL_LENGTH`
 * characters; `https://` only (and loopback `http://` where allowed); no credentials, no fragment; port 443 or
 * `MIN_WEBHOOK_PORT`–65535; not a `localhost` name; and a host that is not an IP literal the public-address check
 * refuses (`public-address.ts`). A host name is resolved and checked at every delivery, not here: what it resolves to may
 * change.
 */
export function webhookUrlProblem(text: string, rules: UrlRules): string | undefined {
  if (!URL.canParse(text)) return 'not a URL';
  const url = new URL(text);
  // As given (what is stored) and as sent (non-ASCII percent-encoded), whichever is longer.
  const length = Math.max(text.length, url.href.length);
  if (length > MAX_WEBHOOK_URL_LENGTH)
    return `longer than ${MAX_WEBHOOK_URL_LENGTH.toLocaleString('en')} characters (${length.toLocaleString('en')})`;
  if (rules.allowLoopbackHttp && isLoopbackHttp(url)) return undefined;
  if (url.protocol !== 'https:')
    return rules.allowLoopbackHttp
      ? 'only https:// URLs (and http://127.0.0.1:<port> or http://localhost:<port> here) are allowed'
      : 'only https:// URLs are allowed';
  if (url.username || url.password) return 'a URL with credentials is not allowed';
  if (url.hash) return 'a URL with a fragment is not allowed';
  // An https URL's port is '' when it is 443, its default.
  if (url.port !== '' && Number(url.port) < MIN_WEBHOOK_PORT)
    return `port ${url.port} is not allowed: 443 or ${MIN_WEBHOOK_PORT}–65535 only`;
  if (isLocalhostName(url.hostname)) return `${url.hostname} is not a public address: a localhost name`;
  // The URL parser gives an IP literal in one form: an IPv4 address in dotted decimal, an IPv6 one compressed.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const refusal = isIP(host) === 0 ? undefined : addressRefusal(host);
  if (refusal) return `${url.hostname} is not a public address: ${describeRefusal(refusal)}`;
  return undefined;
}
