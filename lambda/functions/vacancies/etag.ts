/**
 * The listing's entity tags (docs/design.md#etags). Two kinds, both strong validators — the same tag always means
 * the same bytes — told apart by their first character, so they can never collide:
 *
 * - `"s…"`, from what decides a body when the vendor's summary is current: the build of the function, the vendor
 *   and its company name, the summary's version, the day in the service zone, the normalised parameters (search's
 *   and `include` too; the
 *   effective `per_page` too, and whether `lang` and `per_page` were given: the links keep them only then), the cursor, the locale and the base of the links. A poll whose `If-None-Match` holds
 *   it is answered 304 after one read of the summary.
 * - `"b…"`, the digest of the body itself (`platform/http/conditional.ts`), when the summary cannot be trusted.
 *
 * The core knows nothing of tags: it tells the version of the data an answer is proven for (`ListingVersion`), and
 * answers that a client's answer still holds when the door, asked of a version, says the client holds it.
 *
 * The build is part of the first kind because a new version of the code or the dictionary may write other bytes
 * for the same data: it is a digest of the function's sources the stack bundles in (`VVA_BUILD_ID`), and outside a
 * bundle (the local server, the tests) one drawn per process.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ListingVersion } from '../../domain/answers/listing';
import type { ListingQuery } from '../../domain/answers/query';
import type { Locale } from '../../domain/schema/vacancy';

/** Set by the bundler (`lib/stack/bundling.ts`) to a digest of the sources; absent when they run unbundled. */
declare const VVA_BUILD_ID: string | undefined;

/** The build this code belongs to. */
export const BUILD_ID: string =
  typeof VVA_BUILD_ID === 'string' ? VVA_BUILD_ID : randomBytes(12).toString('hex');

/** Everything a listing body is made from, besides the question: when the vendor's summary is current, all of it. */
export interface BodyInputs {
  readonly company: string;
  /** The version of the vendor's data the body is proven for, and the day (`ListingVersion`). */
  readonly version: ListingVersion;
  /** The service zone, which writes `created_at`. */
  readonly zone: string;
  readonly locale: Locale;
  /** `per_page` in effect, given or the deployment's default. */
  readonly perPage: number;
  /** The absolute URL of the route, which the links start with. */
  readonly routeUrl: string;
}

/** The entity tag of the body a question's answer is made into from `inputs` (see the module's comment). */
export function summaryETag(query: ListingQuery, inputs: BodyInputs): string {
  const { filters, search } = query;
  const parts = [
    BUILD_ID,
    query.vendorId,
    inputs.company,
    inputs.version.version,
    inputs.version.day,
    inputs.zone,
    inputs.locale,
    query.lang ?? '',
    filters.type ?? '',
    filters.experienceMin ?? '',
    filters.experienceMax ?? '',
    search?.category ?? [],
    search?.city ?? [],
    search?.workplace ?? [],
    search?.q?.text ?? '',
    search?.facets ?? [],
    query.include ?? [],
    query.page,
    inputs.perPage,
    query.perPage !== undefined,
    query.cursor?.text ?? '',
    inputs.routeUrl,
  ];
  // JSON keeps the parts apart whatever they contain (a company name may hold any character).
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
  return `"s${digest.slice(0, 32)}"`;
}
