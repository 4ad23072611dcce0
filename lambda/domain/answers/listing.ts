/**
 * The listing (docs/api.md#pagination, docs/design.md#how-a-listing-reads): one flow for every listing question, over
 * a source of entries — the active index, or with search's fields the vendor's search entries in memory
 * (`source.ts`). In order: the vendor's summary, when the source or a client holding an answer needs it first; that
 * the client's answer still holds, when a current summary alone says so; the page, `total` and facets from the
 * source; the vacancies as the API shows them; the page's figures and the cursors of the pages next to it.
 */

import { ReadMeter } from '../reads/read-meter';
import type { VacancyRepository } from '../reads/repository';
import type { Summary } from '../schema/summary';
import type { Locale } from '../schema/vacancy';
import { type ShownVacancy, toVacancyObjects } from '../vacancy/presenter';
import { activeIndexSource } from './active-index-source';
import type { PageStart } from './cursor';
import { inclusion } from './inclusion';
import { lastPage, type PageFigures, type PageLink, pageLinks, pageOffset } from './pages';
import { isSearch, type ListingQuery } from './query';
import type { HeldEntries } from './search/held-entries';
import type { Facets } from './search/in-memory-search';
import { searchSource } from './search-source';
import type { AnswerSettings } from './settings';
import { currentSummary, type ListingWalk } from './source';

/** What a question is asked with besides its fields: who asks, in which language, when, until when. */
export interface Asked {
  /** The vendor's company, as the key's authorizer named it. */
  readonly company: string;
  readonly locale: Locale;
  readonly now: Date;
  /** The request's deadline for DynamoDB. */
  readonly signal?: AbortSignal | undefined;
}

/** What the core reads with: the repository, the settings, and the search entries a warm function holds. */
export interface AnswerSources {
  readonly repository: VacancyRepository;
  readonly settings: AnswerSettings;
  readonly heldEntries: HeldEntries;
}

/** What an answer's reads cost (docs/operating.md#metrics). */
export interface AnswerCost {
  readonly readUnits: number;
  readonly calls: number;
  /** Items the index named for the vendor that belong to another: never shown, always worth an alarm. */
  readonly foreignItems: number;
}

/**
 * The state of the vendor's data a listing's answer is proven for — its summary's version and the day — when the
 * summary was current before the page was read: a door may make a validator of it (the HTTP door's entity tag).
 */
export interface ListingVersion {
  readonly version: number;
  readonly day: string;
}

/** A listing's answer: the page's vacancies, its figures, the pages next to it, the facets asked for. */
export interface ListingAnswer extends PageFigures {
  readonly company: string;
  readonly vacancies: ShownVacancy[];
  readonly next: PageLink | null;
  readonly prev: PageLink | null;
  readonly facets?: Facets;
  readonly version?: ListingVersion;
  readonly locale: Locale;
  readonly cost: AnswerCost;
}

/** That the answer a client holds still holds (`holds` said so of the version): the figures it stands for. */
export interface ListingUnchanged extends PageFigures {
  readonly unchanged: true;
  readonly version: ListingVersion;
  readonly locale: Locale;
  readonly cost: AnswerCost;
}

/**
 * Answers a listing question: the answer a client holds still holds, when it says which (`holds`) and the vendor's
 * current summary alone proves it; otherwise a page (from the top, an offset or a cursor), its `total` and facets,
 * with the version of the data they are proven for when the summary was current before the page was read.
 */
export async function listVacancies(
  query: ListingQuery,
  asked: Asked & { readonly holds?: (version: ListingVersion) => boolean },
  sources: AnswerSources,
): Promise<ListingAnswer | ListingUnchanged> {
  const { repository, settings, heldEntries } = sources;
  const perPage = query.perPage ?? settings.defaultPerPage;
  const walk: ListingWalk = {
    vendorId: query.vendorId,
    filters: query.filters,
    search: query.search,
    start: query.cursor
      ? { cursor: query.cursor.at }
      : ({ offset: pageOffset(query.page, perPage) } satisfies PageStart),
    limit: perPage,
    today: settings.clock.today(asked.now),
    locale: asked.locale,
    now: asked.now,
    signal: asked.signal,
  };
  const meter = new ReadMeter();
  const source = isSearch(query.search)
    ? searchSource(walk, repository, meter, heldEntries)
    : activeIndexSource(walk, repository, meter);
  const versionOf = (summary: Summary): ListingVersion => ({ version: summary.version, day: walk.today });

  let before: Summary | undefined;
  if (source.summaryFirst || asked.holds) {
    const read = meter.add(await repository.readSummary(query.vendorId, asked.signal));
    before = currentSummary(read.summary, walk);
  }
  // A client that holds an answer: the summary read first may prove it still holds.
  const knownTotal = before && asked.holds ? source.knownTotal(before) : undefined;
  if (before && knownTotal && asked.holds?.(versionOf(before))) {
    const total = knownTotal();
    return {
      unchanged: true,
      version: versionOf(before),
      page: query.page,
      perPage,
      total,
      lastPage: lastPage(total, perPage),
      locale: asked.locale,
      cost: { readUnits: meter.readUnits, calls: meter.calls, foreignItems: 0 },
    };
  }

  const found = await source.find(before);
  const last = lastPage(found.total, perPage);
  return {
    company: asked.company,
    vacancies: toVacancyObjects(
      found.page.vacancies,
      asked.locale,
      settings.clock,
      inclusion(query.include, settings),
    ),
    page: query.page,
    perPage,
    total: found.total,
    lastPage: last,
    ...pageLinks(query, found.page, last),
    ...(found.facets && { facets: found.facets }),
    ...(found.summary && { version: versionOf(found.summary) }),
    locale: asked.locale,
    cost: { readUnits: meter.readUnits, calls: meter.calls, foreignItems: found.page.foreignItems },
  };
}
