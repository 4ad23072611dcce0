/**
 * A page of a walk (docs/api.md#pagination, docs/design.md#walks-by-cursor): where it starts, how many pages there
 * are, which pages are next to it, and the cursors of the links to them.
 */
import type { VacancyPage } from '../reads/repository';
import { encodeCursor, type ListingCursor } from './cursor';
import { type ListingQuery, listingBinding } from './query';

/** Where a link to another page of the walk leads: the page's number, and the cursor of its position, if any. */
export interface PageLink {
  readonly page: number;
  readonly cursor?: string;
}

/** The figures of a page (docs/api.md#pagination). */
export interface PageFigures {
  readonly page: number;
  readonly perPage: number;
  readonly total: number;
  readonly lastPage: number;
}

/** A page's figures as every answer states them (docs/api.md#pagination): the pagination object but its links. */
export const paginationFigures = (figures: PageFigures) => ({
  current_page: figures.page,
  last_page: figures.lastPage,
  per_page: figures.perPage,
  total: figures.total,
});

/** Position (from 0) of the first vacancy of a page. */
export const pageOffset = (page: number, perPage: number): number => (page - 1) * perPage;

/** Number of pages: never 0, so that an empty listing still has page 1 as its last page. */
export const lastPage = (total: number, perPage: number): number => Math.max(1, Math.ceil(total / perPage));

/**
 * The pages next to a page (docs/api.md#pagination): a next one while `page < last` — or while more vacancies follow
 * the page, which a walk by cursor needs when the data changed under it — and a previous one while `page > 1`.
 */
export function adjacentPages(
  page: number,
  last: number,
  more: boolean,
): { next: number | null; prev: number | null } {
  return { next: page < last || more ? page + 1 : null, prev: page > 1 ? page - 1 : null };
}

/**
 * The links of a page (docs/api.md#pagination, docs/design.md#walks-by-cursor), to its adjacent pages, with their
 * cursors: next starts after the page's last vacancy, previous before its first.
 * A page that came out empty has neither: reached by a cursor, its links start at that cursor's position — towards
 * the same side as it, not again including it; towards the other side, including it — and reached by an offset,
 * they are offsets too.
 */
export function pageLinks(
  query: ListingQuery,
  page: VacancyPage,
  last: number,
): { next: PageLink | null; prev: PageLink | null } {
  const from = query.cursor?.at;
  let cursors: { next?: ListingCursor; prev?: ListingCursor };
  if (page.first && page.last) {
    cursors = {
      next: { direction: 'older', position: page.last, inclusive: false },
      prev: { direction: 'newer', position: page.first, inclusive: false },
    };
  } else if (!from) {
    cursors = {};
  } else {
    const opposite = { position: from.position, inclusive: !from.inclusive };
    cursors =
      from.direction === 'older'
        ? { next: from, prev: { direction: 'newer', ...opposite } }
        : { next: { direction: 'older', ...opposite }, prev: from };
  }
  const binding = listingBinding(query.vendorId, query.filters, query.search);
  const link = (number: number, cursor: ListingCursor | undefined): PageLink => ({
    page: number,
    ...(cursor && { cursor: encodeCursor(cursor, binding) }),
  });
  // Read towards newer vacancies, the page does not know what follows it; the page it came from, at least.
  const more = from?.direction === 'newer' ? page.vacancies.length > 0 : page.more;
  const pages = adjacentPages(query.page, last, more);
  return {
    next: pages.next === null ? null : link(pages.next, cursors.next),
    prev: pages.prev === null ? null : link(pages.prev, cursors.prev),
  };
}
