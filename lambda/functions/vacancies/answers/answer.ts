/**
 * `GET /vendor/vacancies`, stripped of its transport (docs/api.md): the request is validated and resolved once
 * (`request/request.ts`), then answered by its strategy — the active listing (`active-listing.ts`; with search's parameters,
 * `search-listing.ts`) or, with
 * `updated_since`, the sync (`sync.ts`) — with one meter of what its reads cost.
 */

import { ReadMeter } from '../reads/read-meter';
import type { VacancyRepository } from '../reads/repository';
import type { SearchIndexCache } from '../reads/search-index';
import { isSearch } from '../request/query';
import {
  type NotModifiedResult,
  resolveRequest,
  type VacanciesRequest,
  type VacanciesResult,
  type VacanciesSettings,
} from '../request/request';
import { listActive } from './active-listing';
import { listSearch } from './search-listing';
import { syncVacancies } from './sync';

/**
 * Answers one request of the vacancies route: a page of the listing or of a sync, or a 304. A listing with search's
 * parameters is answered from the vendor's search index as the function holds it (`searchIndexes`).
 */
export async function answerVacancies(
  request: VacanciesRequest,
  repository: VacancyRepository,
  settings: VacanciesSettings,
  searchIndexes: SearchIndexCache,
): Promise<VacanciesResult | NotModifiedResult> {
  const resolved = resolveRequest(request, settings);
  const meter = new ReadMeter();
  if (resolved.kind === 'sync') return syncVacancies(request, resolved, repository, settings, meter);
  return isSearch(resolved.query.search)
    ? listSearch(request, resolved, repository, settings, meter, searchIndexes)
    : listActive(request, resolved, repository, settings, meter);
}
