import { describe, expect, it } from '@jest/globals';
import { lastPage, pageOffset, pageUrlBuilder, paginate, routeUrl } from '../../lambda/vacancies/pagination';

const url = (page: number) => `u?page=${page}`;

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
    expect(paginate(30, 1, 10, url)).toEqual({
      current_page: 1,
      last_page: 3,
      per_page: 10,
      total: 30,
      next_page_url: 'u?page=2',
      prev_page_url: null,
    });
    expect(paginate(30, 3, 10, url)).toMatchObject({ next_page_url: null, prev_page_url: 'u?page=2' });
  });

  it('keeps an empty listing on one page with no links', () => {
    expect(paginate(0, 1, 15, url)).toMatchObject({ last_page: 1, next_page_url: null, prev_page_url: null });
  });

  it('reports a page past the end as requested, linking back to the page before it', () => {
    expect(paginate(5, 9, 10, url)).toMatchObject({
      current_page: 9,
      last_page: 1,
      next_page_url: null,
      prev_page_url: 'u?page=8',
    });
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
