import { describe, expect, it } from '@jest/globals';
import { pageUrlBuilder, routeUrl } from '../../../../../lambda/functions/vacancies/links';

describe('page URLs', () => {
  it('keep every recognised parameter the request gave, normalised, and set page last', () => {
    const build = pageUrlBuilder('https://api.example.com/prod/vendor/vacancies', {
      vendorId: 'acme',
      filters: { type: 3, experienceMin: 0, experienceMax: 4 },
      page: 1,
      perPage: 5,
      lang: 'en',
    });
    expect(build({ page: 2 })).toBe(
      'https://api.example.com/prod/vendor/vacancies?type=3&experience_min=0&experience_max=4&per_page=5&lang=en&page=2',
    );
  });

  it('carry no parameter the request did not give', () => {
    expect(
      pageUrlBuilder('https://h/vendor/vacancies', { vendorId: 'acme', filters: {}, page: 1 })({ page: 4 }),
    ).toBe('https://h/vendor/vacancies?page=4');
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
