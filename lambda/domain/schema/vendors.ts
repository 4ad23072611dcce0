/** Items of the vendors table: vendors and the hashes of their API keys (docs/design.md#data-model). */

/** Whether a vendor may use the API: a suspended vendor's valid keys get 403. */
export const VENDOR_STATUSES = ['active', 'suspended'] as const;
export type VendorStatus = (typeof VENDOR_STATUSES)[number];

/** A vendor: the employer behind one or more API keys. */
export interface Vendor {
  readonly vendorId: string;
  readonly company: string;
  readonly status: VendorStatus;
  /** Its rate tier: a usage plan of the stage. */
  readonly rateTier: string;
  /**
   * The value of its API Gateway API key, which the authorizer hands to API Gateway (`usageIdentifierKey`) so
   * that its requests count against its tier. A random value, not the vendor's Bearer key and never shown to it:
   * API Gateway takes it only from the authorizer, never from a request.
   */
  readonly usageKey?: string;
  /**
   * The value of its second API Gateway key, in the browser tier's usage plan: the authorizer hands it to API
   * Gateway for the vendor's publishable keys, so that pages and sync jobs count against separate limits.
   */
  readonly browserUsageKey?: string;
  /** Its website and logo, absolute https URLs, when the operator set them (a JobPosting names them). */
  readonly website?: string;
  readonly logo?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What the ops CLI keeps on a vendor item about its API Gateway key (never read by the functions). */
export interface VendorUsageKeyRecord {
  /** The API Gateway id of the key whose value is `usageKey`; absent until a deployed stack has it. */
  readonly usageKeyId?: string;
  /** Keys of tiers the vendor left, kept until the authorizer caches that still name them have expired. */
  readonly retiredUsageKeys?: readonly { readonly id: string; readonly deleteAfter: string }[];
  /** The API Gateway id of the key whose value is `browserUsageKey`. */
  readonly browserUsageKeyId?: string;
}

/**
 * What a key is for (docs/api.md#from-a-web-page): a **secret** key belongs in servers and sync jobs; a
 * **publishable** one in a web page, and works only from its origins, for what a career page shows.
 */
export const KEY_KINDS = ['secret', 'publishable'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** How many origins a publishable key may name. */
export const MAX_KEY_ORIGINS = 10;

/**
 * An origin a publishable key may be used from: `https://host[:port]` with a lower-case host, no path, no wildcard;
 * or, for development, `http://localhost[:port]` or `http://127.0.0.1[:port]`.
 */
const HTTPS_ORIGIN =
  /^https:\/\/(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::[1-9][0-9]{0,4})?$/;
const DEVELOPMENT_ORIGIN = /^http:\/\/(?:localhost|127\.0\.0\.1)(?::[1-9][0-9]{0,4})?$/;

/** The port each scheme of an origin has when none is written: browsers never write it in `Origin`. */
const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'https:': '443', 'http:': '80' };

/**
 * An origin a publishable key may name (see `HTTPS_ORIGIN`), as it is stored: with its scheme's default port
 * dropped (`https://careers.example.az:443` is `https://careers.example.az`), since browsers never send a default
 * port in `Origin` and the listing compares the header with the stored value as it is; and with a bare trailing `/`
 * dropped (`http://localhost:4320/`, as an address bar shows a page at the root), which names the same origin — any
 * other path, a query or a fragment is still refused. Undefined when the value is not such an origin.
 */
export function normalizeKeyOrigin(given: unknown): string | undefined {
  if (typeof given !== 'string') return undefined;
  const value = given.endsWith('/') ? given.slice(0, -1) : given;
  if (!HTTPS_ORIGIN.test(value) && !DEVELOPMENT_ORIGIN.test(value)) return undefined;
  const scheme = value.slice(0, value.indexOf('//'));
  const port = /:(\d+)$/.exec(value.slice(scheme.length + 2))?.[1];
  if (port === undefined) return value;
  if (Number(port) > 65_535) return undefined;
  return port === DEFAULT_PORTS[scheme] ? value.slice(0, -(port.length + 1)) : value;
}

/** What to tell a user whose origin is not one. */
export const KEY_ORIGIN_RULE =
  'an origin is https://host[:port] (lower-case host, no path — a bare trailing / is dropped — no wildcard), or http://localhost[:port] or http://127.0.0.1[:port] for development';

/** An API key, as stored: never the key itself, only its SHA-256 hash (the item's key). */
export interface ApiKey {
  /** Short public id, for listing and revoking. */
  readonly keyId: string;
  readonly vendorId: string;
  readonly label: string;
  readonly createdAt: string;
  /** Set when revoked; a revoked key no longer authenticates. */
  readonly revokedAt?: string;
  /** What the key is for; absent on keys issued before publishable keys existed, which are secret. */
  readonly keyKind?: KeyKind;
  /** A publishable key's origins (1 to `MAX_KEY_ORIGINS`). */
  readonly origins?: readonly string[];
}

/** Item kinds of the vendors table (the partition key of its `by-kind` index). */
export const ITEM_KIND = {
  vendor: 'vendor',
  apiKey: 'key',
  webhook: 'webhook',
  feed: 'feed',
  agent: 'agent',
} as const;

/** Key of a vendor item. */
export const vendorItemKey = (vendorId: string) => ({ pk: `vendor#${vendorId}` });

/** Key of an API key item: the key's hash, so the authorizer finds it with one GetItem. */
export const apiKeyItemKey = (keyHash: string) => ({ pk: `key#${keyHash}` });

/**
 * Key of the item in which the local server records the settings the ops CLI needs (its service time zone, its rate
 * tiers), as a deployed stack does in its outputs. Not a vendor and not a key: neither index holds it.
 */
export const LOCAL_DEPLOYMENT_ITEM_KEY = { pk: 'deployment#local' } as const;

/** A vendor id: 2–63 characters of `a-z`, `0-9` and `-`, not starting with `-`. */
const VENDOR_ID = /^[a-z0-9][a-z0-9-]{1,62}$/;

/** Whether a value is a valid vendor id. */
export function isVendorId(value: unknown): value is string {
  return typeof value === 'string' && VENDOR_ID.test(value);
}

/** What to tell a user whose vendor id is not valid. */
export const VENDOR_ID_RULE =
  'vendor ids are 2-63 characters of a-z, 0-9 and "-", starting with a letter or digit';
