import { describe, expect, it } from '@jest/globals';
import { adjacentPages, lastPage, pageOffset } from '../../../../../lambda/domain/answers/pages';

describe('pagination math', () => {
  it('computes offsets and the last page (never below 1)', () => {
    expect(pageOffset(1, 15)).toBe(0);
    expect(pageOffset(3, 10)).toBe(20);
    expect(lastPage(0, 15)).toBe(1);
    expect(lastPage(15, 15)).toBe(1);
    expect(lastPage(16, 15)).toBe(2);
    expect(lastPage(100, 1)).toBe(100);
  });

  it('has no previous page on page 1 and no next page on the last page', () => {
    expect(lastPage(30, 10)).toBe(3);
    expect(adjacentPages(1, 3, false)).toEqual({ next: 2, prev: null });
    expect(adjacentPages(3, 3, false)).toEqual({ next: null, prev: 2 });
  });

  it('keeps an empty listing on one page with no links', () => {
    expect(lastPage(0, 15)).toBe(1);
    expect(adjacentPages(1, lastPage(0, 15), false)).toEqual({ next: null, prev: null });
  });

  it('reports a page past the end as requested, linking back to the page before it', () => {
    expect(lastPage(5, 10)).toBe(1);
    expect(adjacentPages(9, lastPage(5, 10), false)).toEqual({ next: null, prev: 8 });
  });

  it('links to the next page while vacancies follow, even on what the total makes the last page', () => {
    // A walk by cursor, after vacancies before it were closed: the page count shrank, the vacancies did not.
    expect(lastPage(20, 10)).toBe(2);
    expect(adjacentPages(2, 2, true)).toMatchObject({ next: 3 });
    expect(adjacentPages(2, 2, false)).toMatchObject({ next: null });
  });
});
