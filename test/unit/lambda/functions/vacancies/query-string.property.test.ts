/**
 * Properties of the pure parts, over inputs fast-check makes up (and shrinks to the smallest failing one): query
 * parsing, locale negotiation, pagination and its URLs, `If-None-Match`, import record validation. None may
 * throw, whatever it is given.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { encodeCursor } from '../../../../../lambda/domain/answers/cursor';
import { adjacentPages, lastPage, pageOffset } from '../../../../../lambda/domain/answers/pages';
import { listingBinding } from '../../../../../lambda/domain/answers/query';
import { validateVacancyRecord } from '../../../../../lambda/domain/import/record';
import { LOCALES } from '../../../../../lambda/domain/schema/vacancy';
import { negotiateLocale } from '../../../../../lambda/domain/vacancy/locale';
import { pageUrlBuilder } from '../../../../../lambda/functions/vacancies/links';
import { readVacanciesQuery } from '../../../../../lambda/functions/vacancies/query-string';
import { ifNoneMatchMatches, strongETag } from '../../../../../lambda/platform/http/conditional';
import { multiValueQuery } from '../../../../../testkit/events';
import { parseListingQuery } from '../../../../../testkit/query-string';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';

const NAMES = ['type', 'experience_min', 'experience_max', 'per_page', 'page', 'lang'] as const;
type Name = (typeof NAMES)[number];

/** Values that hit the rules' edges: digits with and without zeros, signs, blanks, exponents, big numbers. */
const value = fc.oneof(
  fc.constantFrom('', '0', '1', '4', '5', '007', '100', '101', '-1', ' 1', '1 ', '1.5', '1e2', '0x1', 'abc'),
  fc.constantFrom(
    'az',
    'en',
    'AZ',
    'En',
    'fr',
    '9007199254740991',
    '9007199254740992',
    '99999999999999999999',
  ),
  fc.nat({ max: 200 }).map(String),
  fc.string({ maxLength: 6 }),
);
const parameter = fc.tuple(
  fc.oneof(fc.constantFrom(...NAMES), fc.constantFrom('foo', '__proto__', 'toString')),
  value,
);
const queryString = fc
  .array(parameter, { maxLength: 8 })
  .map((pairs) => new URLSearchParams(pairs).toString());

/** The contract's rules, written again independently: which parameters of a query are invalid. */
function invalidParameters(query: string): Set<Name> {
  const multi = multiValueQuery(query);
  const invalid = new Set<Name>();
  const present = new Map<Name, string>();
  for (const name of NAMES) {
    const values = Object.hasOwn(multi, name) ? (multi[name] ?? []) : [];
    if (values.length > 1) invalid.add(name);
    else if (values[0]) present.set(name, values[0]);
  }
  const integerIn = (name: Name, min: number, max: number) => {
    const raw = present.get(name);
    if (raw === undefined || invalid.has(name)) return undefined;
    if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      invalid.add(name);
      return undefined;
    }
    return Number(raw);
  };
  integerIn('type', 1, 4);
  const min = integerIn('experience_min', 0, 100);
  const max = integerIn('experience_max', 0, 100);
  if (min !== undefined && max !== undefined && max < min) invalid.add('experience_max');
  integerIn('per_page', 1, 100);
  integerIn('page', 1, Number.MAX_SAFE_INTEGER);
  const lang = present.get('lang');
  if (lang !== undefined && !invalid.has('lang') && !['az', 'en'].includes(lang.toLowerCase()))
    invalid.add('lang');
  return invalid;
}

describe('properties', () => {
  it('query parsing: any query string is a valid query or a 422 naming exactly its invalid parameters', () => {
    fc.assert(
      fc.property(queryString, (query) => {
        const result = parseListingQuery(multiValueQuery(query));
        const expected = invalidParameters(query);
        if (result.ok) expect(expected.size).toBe(0);
        else {
          expect(new Set(Object.keys(result.errors))).toEqual(expected);
          for (const messages of Object.values(result.errors)) expect(messages).toHaveLength(1);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('pagination URLs carry the query back: parsed again, they give the same query at the linked page', () => {
    const validQuery = queryString.filter((query) => invalidParameters(query).size === 0);
    fc.assert(
      fc.property(validQuery, fc.nat({ max: 2_000 }), (query, total) => {
        const parsed = parseListingQuery(multiValueQuery(query));
        const read = readVacanciesQuery('acme', multiValueQuery(query));
        if (!parsed.ok || read.kind !== 'listing') throw new Error('a valid query did not parse');
        const perPage = parsed.query.perPage ?? 15;
        const { page: current } = parsed.query;
        const pageUrl = pageUrlBuilder('https://api.test/prod/vendor/vacancies', read.query);
        // The links' cursors, as the listing makes them: of its walk, at some position.
        const binding = listingBinding('acme', read.query.filters, read.query.search);
        const position = new Uint8Array(12).fill(7);
        const next = encodeCursor({ direction: 'older', position, inclusive: false }, binding);
        const prev = encodeCursor({ direction: 'newer', position, inclusive: false }, binding);
        const last = lastPage(total, perPage);
        const links = {
          next_page_url: current < last ? pageUrl({ page: current + 1, cursor: next }) : null,
          prev_page_url: current > 1 ? pageUrl({ page: current - 1, cursor: prev }) : null,
        };
        for (const [link, page, cursor] of [
          [links.next_page_url, current + 1, next],
          [links.prev_page_url, current - 1, prev],
        ] as const) {
          if (link === null) continue;
          const url = new URL(link);
          expect(url.origin + url.pathname).toBe('https://api.test/prod/vendor/vacancies');
          const again = parseListingQuery(multiValueQuery(url.search.slice(1)));
          expect(again).toEqual({ ok: true, query: { ...parsed.query, page, cursor } });
        }
      }),
    );
  });

  it('pagination math: following next links from page 1 visits every position exactly once', () => {
    fc.assert(
      fc.property(fc.nat({ max: 5_000 }), fc.integer({ min: 1, max: 100 }), (total, perPage) => {
        const last = lastPage(total, perPage);
        const seen: number[] = [];
        let page: number | null = 1;
        while (page !== null) {
          const current: number = page;
          const links = adjacentPages(current, last, false);
          const offset = pageOffset(page, perPage);
          for (let position = offset; position < Math.min(offset + perPage, total); position += 1)
            seen.push(position);
          page = links.next;
        }
        expect(seen).toEqual(Array.from({ length: total }, (_, i) => i));
        expect(adjacentPages(last + 1, last, false).next).toBeNull();
      }),
    );
  });

  it('locale negotiation: never throws, always a supported locale; lang decides; an excluded language never wins over an accepted one', () => {
    const range = fc.oneof(
      fc.constantFrom('az', 'en', 'en-US', 'az-AZ', 'AZ', 'fr', '*', 'x-klingon', '!!', ''),
      fc.string({ maxLength: 8 }),
    );
    const quality = fc.oneof(
      fc.constant(''),
      fc.constantFrom(';q=0', ';q=1', ';q=0.5', ';q=0.001', ';q=2', ';q=abc', ';Q=0.7'),
    );
    const header = fc
      .array(fc.tuple(range, quality), { maxLength: 6 })
      .map((entries) => entries.map(([r, q]) => r + q).join(', '));
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom(...LOCALES), { nil: undefined }),
        fc.option(header, { nil: undefined }),
        fc.constantFrom(...LOCALES),
        (lang, acceptLanguage, fallback) => {
          const locale = negotiateLocale(lang, acceptLanguage, fallback);
          expect(LOCALES).toContain(locale);
          if (lang) expect(locale).toBe(lang);
        },
      ),
      { numRuns: 2_000 },
    );
    // The one that is named with q=0 loses to the other, accepted one, whatever the order or the default.
    fc.assert(
      fc.property(
        fc.constantFrom(...LOCALES),
        fc.constantFrom(...LOCALES),
        fc.boolean(),
        (excluded, fallback, excludedFirst) => {
          const other = LOCALES.find((locale) => locale !== excluded) as string;
          const parts = [`${excluded};q=0`, `${other};q=0.1`];
          expect(
            negotiateLocale(undefined, (excludedFirst ? parts : parts.reverse()).join(', '), fallback),
          ).toBe(other);
          expect(negotiateLocale(undefined, `*, ${excluded};q=0`, fallback)).toBe(other);
        },
      ),
    );
  });

  it('If-None-Match: matches exactly when the list names the ETag (weakly or strongly) or is * alone', () => {
    const tag = fc.stringMatching(/^"[A-Za-z0-9_-]{1,12}"$/);
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(tag, { maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        (body, others, include, weak) => {
          const etag = strongETag('az', body);
          const candidates = others.filter((other) => other !== etag);
          if (include) candidates.splice(candidates.length >> 1, 0, weak ? `W/${etag}` : etag);
          const header = candidates.join(' ,');
          expect(ifNoneMatchMatches(header, etag)).toBe(include);
          // `*` is the whole value or none of it: in a list, the value is not an If-None-Match, and matches nothing.
          expect(ifNoneMatchMatches(`${header}, *`, etag)).toBe(false);
          expect(ifNoneMatchMatches(` * `, etag)).toBe(true);
        },
      ),
    );
  });

  it('import record validation: never throws, on any JSON value or any field of a record replaced by any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        expect(() => validateVacancyRecord(input, CLOCK)).not.toThrow();
      }),
      { numRuns: 1_000 },
    );
    const field = fc.constantFrom(...Object.keys(vacancyRecord()), 'unknown_field');
    fc.assert(
      fc.property(field, fc.jsonValue(), (name, replacement) => {
        const result = validateVacancyRecord(vacancyRecord({ [name]: replacement }), CLOCK);
        if (!result.ok) {
          expect(result.reasons.length).toBeGreaterThan(0);
          // What the record says is never echoed back into a reason, beyond a field name.
          for (const reason of result.reasons) expect(reason.length).toBeLessThan(300);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
