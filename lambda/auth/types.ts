/** Types of vendors and their API keys, as stored in the vendors table. */

/** Whether a vendor may use the API: a suspended vendor's valid keys get 403. */
export type VendorStatus = 'active' | 'suspended';

/** A vendor: the employer behind one or more API keys. */
export interface Vendor {
  readonly vendorId: string;
  readonly company: string;
  readonly status: VendorStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
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

/** A newly issued key: the only moment the key itself exists outside its holder. */
export interface IssuedApiKey extends ApiKey {
  readonly apiKey: string;
}
