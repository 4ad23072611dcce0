import { describe, expect, it } from '@jest/globals';
import {
  lastPage,
  pageOffset,
  pageUrlBuilder,
  paginate,
  routeUrl,
} from '../../../../../lambda/functions/vacancies/links';

/** The links of page `page`, and whether more vacancies follow it (a walk by cursor needs that). */
const links = (page: number, more = false) => ({
  more,
  next: () => `u?page=${page + 1}`,
  prev: () => `u?page=${page - 1}`,
});

describe('pagination math', () => {
  it('computes offsets and the last page (never below 1)', () => {
    expect(pageOffset(1, 15)).toBe(0);
    expect(pageOffset(3, 10)).toBe(20);
    expect(lastPage(0, 15)).toBe(1);
    expect(lastPage(15, 15)).toBe(1);
    expect(lastPage(16, 15)).toBe(2);
    expect(lastPage(100, 1)).toBe(100);
  });

  it('has no previous link on page 1 and no next link on the last page', () => {
    expect(paginate(30, 1, 10, links(1))).toEqual({
      current_page: 1,
      last_page: 3,
      per_page: 10,
      total: 30,
      next_page_url: 'u?page=2',
      prev_page_url: null,
    });
    expect(paginate(30, 3, 10, links(3))).toMatchObject({ next_page_url: null, prev_page_url: 'u?page=2' });
  });

  it('keeps an empty listing on one page with no links', () => {
    expect(paginate(0, 1, 15, links(1))).toMatchObject({
      last_page: 1,
      next_page_url: null,
      prev_page_url: null,
    });
  });

  it('reports a page past the end as requested, linking back to the page before it', () => {
    expect(paginate(5, 9, 10, links(9))).toMatchObject({
      current_page: 9,
      last_page: 1,
      next_page_url: null,
      prev_page_url: 'u?page=8',
    });
  });

  it('links to the next page while vacancies follow, even on what the total makes the last page', () => {
    // A walk by cursor, after vacancies before it were closed: the page count shrank, the vacancies did not.
    expect(paginate(20, 2, 10, links(2, true))).toMatchObject({ last_page: 2, next_page_url: 'u?page=3' });
    expect(paginate(20, 2, 10, links(2, false))).toMatchObject({ next_page_url: null });
  });
});

describe('page URLs', () => {
  it('keep every recognised parameter the request gave, normalised, and set page last', () => {
    const build = pageUrlBuilder('https://api.example.com/prod/vendor/vacancies', {
      filters: { type: 3, experienceMin: 0, experienceMax: 4 },
      page: 1,
      perPage: 5,
      lang: 'en',
    });
    expect(build(2)).toBe(
      'https://api.example.com/prod/vendor/vacancies?type=3&experience_min=0&experience_max=4&per_page=5&lang=en&page=2',
    );
  });

  it('carry no parameter the request did not give', () => {
    expect(pageUrlBuilder('https://h/vendor/vacancies', { filters: {}, page: 1 })(4)).toBe(
      'https://h/vendor/vacancies?page=4',
    );
  });

  it("use the configured public base URL, else https with API Gateway's domain and the stage path", () => {
    const location = {
      domainName: 'abc.execute-api.eu-central-1.amazonaws.com',
      path: '/prod/vendor/vacancies',
    };
    expect(routeUrl(undefined, location)).toBe(
      'https://abc.execute-api.eu-central-1.amazonaws.com/prod/vendor/vacancies',
    );
    expect(routeUrl('https://jobs.example.com/api/', location)).toBe(
      'https://jobs.example.com/api/vendor/vacancies',
    );
    expect(routeUrl('http://127.0.0.1:3000', location)).toBe('http://127.0.0.1:3000/vendor/vacancies');
  });
});
