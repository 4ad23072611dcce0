/**
 * What a key may be used for (docs/api.md#from-a-web-page): a publishable key only from one of its origins and never
 * for a sync; a secret key never from a browser. A rule of the keys, checked by the vacancies function with what the
 * authorizer put in its context.
 *
 * An origin check is not authentication: any program can send any `Origin`. It keeps a publishable key, which is
 * public in a page, to what that page shows anyway; and it stops a secret key pasted into a page on its first call.
 */
import { HttpError } from '../../platform/http/errors';
import type { AuthorizedVendor } from './context';

/** The 403s of a key used where it may not be (the contract's messages). */
export const KEY_USE_MESSAGES = {
  origin: 'This origin may not use this key.',
  sync: 'A publishable key cannot sync.',
  secretInBrowser: 'A secret key cannot be used from a browser; use a publishable key.',
} as const;

/**
 * Whether the key may make this request (docs/api.md#from-a-web-page), in the contract's order: a publishable key
 * only from one of its origins, then never for a sync; a secret key never from a browser (a request with an
 * `Origin`). Throws the 403 that says why.
 */
export function checkKeyUse(vendor: AuthorizedVendor, origin: string | undefined, sync: boolean): void {
  const forbidden = (message: string) => new HttpError(403, { message });
  if (vendor.keyKind === 'publishable') {
    if (origin === undefined || !(vendor.origins ?? []).includes(origin))
      throw forbidden(KEY_USE_MESSAGES.origin);
    if (sync) throw forbidden(KEY_USE_MESSAGES.sync);
  } else if (origin !== undefined) {
    throw forbidden(KEY_USE_MESSAGES.secretInBrowser);
  }
}
