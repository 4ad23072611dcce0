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
 * The build is part of the first kind because a new version of the code or the dictionary may write other bytes
 * for the same data: it is a digest of the function's sources the stack bundles in (`VVA_BUILD_ID`), and outside a
 * bundle (the local server, the tests) one drawn per process.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { VacancyFilters } from '../../domain/schema/active-index';
import type { Locale } from '../../domain/schema/vacancy';
import type { IncludeName } from '../../domain/vacancy/pay-and-place';
import type { SearchFilters } from '../../domain/answers/query';

/** Set by the bundler (`lib/stack/bundling.ts`) to a digest of the sources; absent when they run unbundled. */
declare const VVA_BUILD_ID: string | undefined;

/** The build this code belongs to. */
export const BUILD_ID: string =
  typeof VVA_BUILD_ID === 'string' ? VVA_BUILD_ID : randomBytes(12).toString('hex');

/** Everything a listing body is made from, when the vendor's summary is current. */
export interface BodyInputs {
  readonly vendorId: string;
  readonly company: string;
  readonly version: number;
  /** Today in the service zone, and the zone (which writes `created_at`). */
  readonly today: string;
  readonly zone: string;
  readonly locale: Locale;
  /** `lang` as the request gave it (normalised), or none: the links keep it only when given. */
  readonly lang: Locale | undefined;
  readonly filters: VacancyFilters;
  /** Search's parameters, in their canonical form (the links carry them so). */
  readonly search: SearchFilters | undefined;
  /** What the vacancy objects include besides their 15 fields, in its canonical form. */
  readonly include: readonly IncludeName[] | undefined;
  readonly page: number;
  readonly perPage: number;
  /** Whether the request gave `per_page` (the links keep it only then), whatever its effective value. */
  readonly perPageGiven: boolean;
  /** The cursor as given, or none. */
  readonly cursor: string | undefined;
  /** The absolute URL of the route, which the links start with. */
  readonly routeUrl: string;
}

/** The entity tag of a body made from `inputs` (see the module's comment). */
export function summaryETag(inputs: BodyInputs): string {
  const { filters } = inputs;
  const parts = [
    BUILD_ID,
    inputs.vendorId,
    inputs.company,
    inputs.version,
    inputs.today,
    inputs.zone,
    inputs.locale,
    inputs.lang ?? '',
    filters.type ?? '',
    filters.experienceMin ?? '',
    filters.experienceMax ?? '',
    inputs.search?.category ?? [],
    inputs.search?.city ?? [],
    inputs.search?.workplace ?? [],
    inputs.search?.q?.text ?? '',
    inputs.search?.facets ?? [],
    inputs.include ?? [],
    inputs.page,
    inputs.perPage,
    inputs.perPageGiven,
    inputs.cursor ?? '',
    inputs.routeUrl,
  ];
  // JSON keeps the parts apart whatever they contain (a company name may hold any character).
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
  return `"s${digest.slice(0, 32)}"`;
}
