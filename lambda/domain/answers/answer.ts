/**
 * `GET /vendor/vacancies`, stripped of its transport (docs/api.md): the request is validated and resolved once
 * (`request/request.ts`), then answered — without `updated_since` by the listing (`listing.ts`), with it by the sync
 * (`sync.ts`) — with one meter of what its reads cost.
 */

import { ReadMeter } from '../reads/read-meter';
import type { VacancyRepository } from '../reads/repository';
import {
  type NotModifiedResult,
  resolveRequest,
  type VacanciesRequest,
  type VacanciesResult,
  type VacanciesSettings,
} from './request';
import type { HeldEntries } from './search/held-entries';
import { listVacancies } from './listing';
import { syncVacancies } from './sync';

/**
 * Answers one request of the vacancies route: a page of the listing or of a sync, or a 304. A listing with search's
 * parameters is answered from the vendor's search entries as the function holds them (`heldEntries`).
 */
export async function answerVacancies(
  request: VacanciesRequest,
  repository: VacancyRepository,
  settings: VacanciesSettings,
  heldEntries: HeldEntries,
): Promise<VacanciesResult | NotModifiedResult> {
  const resolved = resolveRequest(request, settings);
  const meter = new ReadMeter();
  return resolved.kind === 'sync'
    ? syncVacancies(request, resolved, repository, settings, meter)
    : listVacancies(request, resolved, repository, settings, meter, heldEntries);
}
