/**
 * The authorizer's context: what the TOKEN authorizer tells API Gateway about the vendor of a key, and the only place
 * the listing learns the vendor from (docs/design.md#architecture). Written by the authorizer, read by the listing
 * and by the local server's stand-in for API Gateway — one shape, one writer, one reader.
 */

import { type KeyKind, MAX_KEY_ORIGINS } from '../schema/vendors';

/** The vendor a request is for, as the authorizer resolved it from the request's key — and what that key is. */
export interface AuthorizedVendor {
  readonly vendorId: string;
  /** The company name the listing answers with. */
  readonly company: string;
  /** Its rate tier: the usage plan that throttles it, which every 200 states in `RateLimit-Policy`. */
  readonly rateTier: string;
  /** Its website and logo (absolute https URLs), when the operator set them: a JobPosting names them. */
  readonly website?: string | undefined;
  readonly logo?: string | undefined;
  /** The key's kind (docs/api.md#from-a-web-page); secret when absent. */
  readonly keyKind?: KeyKind;
  /** A publishable key's origins: the only ones it works from. */
  readonly origins?: readonly string[];
  /**
   * The public agent endpoint the request came through (`POST /mcp/{token}`, docs/api.md#agents-mcp), instead of a
   * key: it answers as a secret key of its vendor would, from any origin.
   */
  readonly agentId?: string | undefined;
}

/** The context an authorizer returns for a vendor: string values only, as API Gateway requires. */
export function authorizerContext({
  vendorId,
  company,
  rateTier,
  website,
  logo,
  keyKind = 'secret',
  origins = [],
  agentId,
}: AuthorizedVendor): Record<string, string> {
  return {
    vendorId,
    company,
    rateTier,
    ...(website && { website }),
    ...(logo && { logo }),
    keyKind,
    ...(agentId && { agentId }),
    // An origin has no blank: one string, as API Gateway's context requires.
    ...(keyKind === 'publishable' && { origins: origins.join(' ') }),
  };
}

/**
 * The vendor of a request's authorizer context (`requestContext.authorizer`, whatever API Gateway added to it), or
 * undefined when it names none — a route without the authorizer, which must fail closed.
 */
export function authorizedVendor(context: unknown): AuthorizedVendor | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const { vendorId, company, rateTier, website, logo, keyKind, origins, agentId } = context as Record<
    string,
    unknown
  >;
  if (typeof vendorId !== 'string' || vendorId === '' || typeof company !== 'string') return undefined;
  if (typeof rateTier !== 'string' || rateTier === '') return undefined;
  // A publishable key works only from its origins: one that names none works from nowhere.
  const publishable = keyKind === 'publishable';
  return {
    vendorId,
    company,
    rateTier,
    ...(typeof website === 'string' && website !== '' && { website }),
    ...(typeof logo === 'string' && logo !== '' && { logo }),
    keyKind: publishable ? 'publishable' : 'secret',
    ...(!publishable && typeof agentId === 'string' && agentId !== '' && { agentId }),
    origins:
      publishable && typeof origins === 'string'
        ? origins.split(' ').filter(Boolean).slice(0, MAX_KEY_ORIGINS)
        : [],
  };
}

/**
 * The vendor of a request, only ever from its authorizer's context: no header or parameter of the request can choose
 * it. A context that names none means the route is misconfigured (no authorizer); that fails closed, as a 500.
 */
export function requestVendor(event: {
  readonly requestContext: { readonly authorizer?: unknown };
}): AuthorizedVendor {
  const vendor = authorizedVendor(event.requestContext.authorizer);
  if (!vendor) throw new Error('No vendor in the authorizer context');
  return vendor;
}
