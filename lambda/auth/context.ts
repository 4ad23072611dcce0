/**
 * The authorizer's context: what the TOKEN authorizer tells API Gateway about the vendor of a key, and the only place
 * the listing learns the vendor from (docs/design.md#architecture). Written by the authorizer, read by the listing
 * and by the local server's stand-in for API Gateway — one shape, one writer, one reader.
 */

/** The vendor a request is for, as the authorizer resolved it from the request's key. */
export interface AuthorizedVendor {
  readonly vendorId: string;
  /** The company name the listing answers with. */
  readonly company: string;
  /** Its rate tier: the usage plan that throttles it, which every 200 states in `RateLimit-Policy`. */
  readonly rateTier: string;
  /** Its website and logo (absolute https URLs), when the operator set them: a JobPosting names them. */
  readonly website?: string | undefined;
  readonly logo?: string | undefined;
}

/** The context an authorizer returns for a vendor: string values only, as API Gateway requires. */
export function authorizerContext({
  vendorId,
  company,
  rateTier,
  website,
  logo,
}: AuthorizedVendor): Record<string, string> {
  return { vendorId, company, rateTier, ...(website && { website }), ...(logo && { logo }) };
}

/**
 * The vendor of a request's authorizer context (`requestContext.authorizer`, whatever API Gateway added to it), or
 * undefined when it names none — a route without the authorizer, which must fail closed.
 */
export function authorizedVendor(context: unknown): AuthorizedVendor | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const { vendorId, company, rateTier, website, logo } = context as Record<string, unknown>;
  if (typeof vendorId !== 'string' || vendorId === '' || typeof company !== 'string') return undefined;
  if (typeof rateTier !== 'string' || rateTier === '') return undefined;
  return {
    vendorId,
    company,
    rateTier,
    ...(typeof website === 'string' && website !== '' && { website }),
    ...(typeof logo === 'string' && logo !== '' && { logo }),
  };
}
