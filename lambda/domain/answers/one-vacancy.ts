/**
 * One vacancy (docs/api.md#one-vacancy): what a career page's job page needs. One GetItem of the id, then the vendor
 * and the active rule checked (status `active`, deadline today or later in the service zone). A vacancy of the vendor's
 * that was open and is no longer — closed, expired (recorded, or past its deadline and not recorded yet), deleted —
 * is gone, and since when (`GoneVacancy`, an answer: a door says it as it says no longer open). Every other way of
 * not being one — not an id, not there (a purged tombstone too), another vendor's, a draft, inactive — is the same
 * `VacancyNotFoundError`, so nothing tells whether an id exists elsewhere. The answer is the vacancy as a stored
 * record and as the vacancy object; a door chooses how to show it (the HTTP door also as a schema.org JobPosting,
 * `domain/vacancy/job-posting.ts`).
 */

import { formatRfc3339 } from '../../platform/time/rfc3339';
import type { ZoneClock } from '../../platform/time/zone-clock';
import type { ShownItem } from '../reads/item-reader';
import { dayNumber } from '../schema/active-index';
import { ITEM } from '../schema/tables';
import type { Locale } from '../schema/vacancy';
import type { ListedVacancy } from '../schema/vacancy-item';
import { type ShownVacancy, toVacancyObjects } from '../vacancy/presenter';
import { VacancyNotFoundError } from './errors';
import { inclusion } from './inclusion';
import type { AnswerSources, Asked } from './listing';
import type { VacancyQuery } from './query';

/** One vacancy's answer: the vendor's, the vacancy as stored and as the API shows it, and what its read cost. */
export interface VacancyAnswer {
  readonly company: string;
  readonly id: number;
  /** The stored vacancy (what a JobPosting is made of). */
  readonly vacancy: ListedVacancy;
  /** The vacancy object, with what `include` asked for. */
  readonly object: ShownVacancy;
  readonly locale: Locale;
  readonly cost: { readonly readUnits: number; readonly calls: number };
}

/**
 * The key's own vendor's vacancy, closed, expired or deleted at `closedAt` (RFC 3339, UTC, milliseconds) — what a job
 * board or a candidate following an old link is told (docs/api.md#one-vacancy) — with what its read cost, which the
 * door reports as it reports a served vacancy.
 */
export interface GoneVacancy {
  readonly gone: true;
  readonly id: number;
  readonly closedAt: string;
  readonly cost: VacancyAnswer['cost'];
}

/** The statuses of a vacancy that was open and is no longer (a draft or an inactive one may never have been). */
const GONE_STATUSES: ReadonlySet<string> = new Set(['closed', 'expired', 'deleted']);

/**
 * Where an item stands for the route: open (its vacancy), gone (since when, ms) or neither (a 404). Gone: closed,
 * expired or deleted, since its last change (`updated_at`: the change that closed it, or a later import that edited
 * the closed vacancy — the item keeps no other time); or active but past its deadline, which the expiry job records
 * within 15 minutes after the day begins (docs/design.md#expiry) — expired by the active rule since its deadline day
 * ended, the first moment of the next day in the service zone (or since its last change, should that be later).
 * Once the job records it, `closed_at` is the recording's `updated_at`, up to 15 minutes later.
 */
function standing(
  item: ShownItem | undefined,
  today: number,
  clock: ZoneClock,
): { open: ListedVacancy } | { closedAt: number } | undefined {
  if (item === undefined) return undefined;
  if (GONE_STATUSES.has(item.status)) return { closedAt: item[ITEM.updatedAt] };
  if (item.status !== 'active' || item.deadline === undefined) return undefined;
  if (dayNumber(item.deadline) >= today) return { open: item as ListedVacancy };
  const deadlinePassed = clock.nextDayStart(clock.fromLocal(`${item.deadline} 00:00:00`)).getTime();
  return { closedAt: Math.max(deadlinePassed, item[ITEM.updatedAt]) };
}

/**
 * Answers a question of one vacancy: the vacancy, or `GoneVacancy` (one of the vendor's no longer open, since
 * when); or throws `VacancyNotFoundError` — for an id that is no whole number from 1 to 2^53 − 1 too, without a read.
 */
export async function showVacancy(
  query: VacancyQuery,
  asked: Asked,
  sources: Pick<AnswerSources, 'repository' | 'settings'>,
): Promise<VacancyAnswer | GoneVacancy> {
  const { repository, settings } = sources;
  const { id } = query;
  if (!Number.isSafeInteger(id) || id < 1) throw new VacancyNotFoundError();
  const read = await repository.readVacancy(query.vendorId, id, asked.signal);
  const today = dayNumber(settings.clock.today(asked.now));
  const found = standing(read.item, today, settings.clock);
  if (found === undefined) throw new VacancyNotFoundError();
  const cost = { readUnits: read.readUnits, calls: read.calls };
  if ('closedAt' in found) return { gone: true, id, closedAt: formatRfc3339(found.closedAt), cost };
  const [object] = toVacancyObjects(
    [found.open],
    asked.locale,
    settings.clock,
    inclusion(query.include, settings),
  ) as [ShownVacancy];
  return { company: asked.company, id, vacancy: found.open, object, locale: asked.locale, cost };
}
