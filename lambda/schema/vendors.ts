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
}

/** An API key, as stored: never the key itself, only its SHA-256 hash (the item's key). */
export interface ApiKey {
  /** Short public id, for listing and revoking. */
  readonly keyId: string;
  readonly vendorId: string;
  readonly label: string;
  readonly createdAt: string;
  /** Set when revoked; a revoked key no longer authenticates. */
  readonly revokedAt?: string;
}

/** Item kinds of the vendors table (the partition key of its `by-kind` index). */
export const ITEM_KIND = { vendor: 'vendor', apiKey: 'key' } as const;

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

/** Whether a value may be a vendor's website or logo: an absolute https URL with a host, no credentials, no blank. */
export function isPublicHttpsUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2048 || /\s/.test(value) || !URL.canParse(value))
    return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
}
