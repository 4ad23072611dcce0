/** A vendor id (CONTRACT §4): 2–63 characters of `a-z`, `0-9` and `-`, not starting with `-`. */
const VENDOR_ID = /^[a-z0-9][a-z0-9-]{1,62}$/;

/** Whether a value is a valid vendor id. */
export function isVendorId(value: unknown): value is string {
  return typeof value === 'string' && VENDOR_ID.test(value);
}

/** What to tell a user whose vendor id is not valid. */
export const VENDOR_ID_RULE =
  'vendor ids are 2-63 characters of a-z, 0-9 and "-", starting with a letter or digit';
