/**
 * `GET /vendor/vacancies`, stripped of its transport (docs/api.md): the request is validated and resolved once
 * (`request.ts`), then answered by its strategy — the active listing (`active-listing.ts`) or, with
 * `updated_since`, the sync (`sync.ts`) — with one meter of what its reads cost.
 */
import { listActive } from './active-listing';
import { ReadMeter } from './read-meter';
import type { VacancyRepository } from './repository';
import {
  type ListingRequest,
  type ListingResult,
  type ListingSettings,
  type NotModifiedResult,
  resolveRequest,
} from './request';
import { syncVacancies } from './sync';

/** Answers one request of the vacancies route: a page of the listing or of a sync, or a 304. */
export async function listVacancies(
  request: ListingRequest,
  repository: VacancyRepository,
  settings: ListingSettings,
): Promise<ListingResult | NotModifiedResult> {
  const resolved = resolveRequest(request, settings);
  const meter = new ReadMeter();
  return resolved.kind === 'sync'
    ? syncVacancies(request, resolved, repository, settings, meter)
    : listActive(request, resolved, repository, settings, meter);
}
