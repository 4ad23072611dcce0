import { describe, expect, it } from '@jest/globals';
import { encodeSyncCursor } from '../../../../../lambda/domain/answers/cursor';
import { syncBinding } from '../../../../../lambda/domain/answers/query';
import { CHANGE_KEY_BYTES } from '../../../../../lambda/domain/schema/change-index';
import { parseVacancyId } from '../../../../../lambda/functions/vacancies/query-string';
import { parseQueryString as parse, parseListingQuery } from '../../../../../testkit/query-string';

describe('readVacanciesQuery', () => {
  it('applies defaults when nothing is given (null from API Gateway included)', () => {
    expect(parseListingQuery(null)).toEqual({ ok: true, query: { filters: {}, page: 1 } });
    expect(parse('')).toEqual({ ok: true, query: { filters: {}, page: 1 } });
  });

  it('reads every recognised parameter and normalises it', () => {
    expect(parse('type=2&experience_min=1&experience_max=5&per_page=007&page=3&lang=EN')).toEqual({
      ok: true,
      query: { filters: { type: 2, experienceMin: 1, experienceMax: 5 }, page: 3, perPage: 7, lang: 'en' },
    });
  });

  it('treats an empty value as absent and ignores unknown parameters (vendor_id included)', () => {
    expect(parse('type=&per_page=&lang=&vendor_id=other&foo=bar')).toEqual({
      ok: true,
      query: { filters: {}, page: 1 },
    });
  });

  it.each(['1.5', '1e2', '0x1', '-1', ' 1', '1 ', '+1', 'abc', '１'])(
    'rejects %p: an integer is ASCII decimal digits only',
    (value) => {
      const result = parseListingQuery({ per_page: [value] });
      expect(result.ok ? undefined : result.errors).toEqual({
        per_page: ['The per_page must be an integer.'],
      });
    },
  );

  it.each(['abc', '+1', '1.0', '01.0', '1e0', '-1', ' 1'])(
    "rejects type=%p as what it is not: one of the four codes (the contract's message)",
    (value) => {
      expect(parseListingQuery({ type: [value] })).toEqual({
        ok: false,
        errors: { type: ['The type must be one of 1, 2, 3, 4.'] },
      });
    },
  );

  it.each([
    ['type=0', 'type', 'The type must be one of 1, 2, 3, 4.'],
    ['type=5', 'type', 'The type must be one of 1, 2, 3, 4.'],
    ['per_page=0', 'per_page', 'The per_page must be between 1 and 100.'],
    ['per_page=101', 'per_page', 'The per_page must be between 1 and 100.'],
    ['page=0', 'page', 'The page must be between 1 and 9007199254740991.'],
    ['page=99999999999999999999', 'page', 'The page must be between 1 and 9007199254740991.'],
    ['experience_min=101', 'experience_min', 'The experience_min must be between 0 and 100.'],
    ['experience_max=101', 'experience_max', 'The experience_max must be between 0 and 100.'],
    ['lang=fr', 'lang', 'The lang must be one of az, en.'],
    ['type=1&type=2', 'type', 'The type must not be given more than once.'],
    ['page=1&page=1', 'page', 'The page must not be given more than once.'],
  ])('rejects %s', (query, name, message) => {
    const result = parse(query);
    expect(result.ok ? undefined : result.errors).toEqual({ [name]: [message] });
  });

  it('accepts the limits themselves', () => {
    expect(parse('per_page=1&experience_min=0&experience_max=100&type=4').ok).toBe(true);
    expect(parse('per_page=100&page=9007199254740991').ok).toBe(true);
  });

  it('requires experience_max ≥ experience_min when both are given, and allows them equal', () => {
    expect(parse('experience_min=5&experience_max=2')).toEqual({
      ok: false,
      errors: { experience_max: ['The experience_max must be greater than or equal to experience_min.'] },
    });
    expect(parse('experience_min=5&experience_max=5').ok).toBe(true);
  });

  it('names every invalid parameter at once', () => {
    const result = parse('type=9&experience_min=x&per_page=500&page=-2&lang=de&lang=az');
    expect(result.ok).toBe(false);
    expect(!result.ok && Object.keys(result.errors)).toEqual([
      'type',
      'experience_min',
      'per_page',
      'page',
      'lang',
    ]);
  });
});

describe('readVacanciesQuery: search, filters by code and facets', () => {
  it('reads codes once each in the dictionary order, q trimmed with single spaces, facets in their order', () => {
    expect(
      parse(
        'city=ganja,baku,ganja&category=finance,it&q=%20%20M%C3%BCh%C9%99ndis%20%20%20back%20&facets=city,type',
      ),
    ).toEqual({
      ok: true,
      query: {
        filters: {},
        search: {
          category: ['it', 'finance'],
          city: ['baku', 'ganja'],
          q: { text: 'Mühəndis back', words: ['muhendis', 'back'] },
          facets: ['type', 'city'],
        },
        page: 1,
      },
    });
  });

  it('treats empty values as absent', () => {
    expect(parse('category=&city=&q=&facets=')).toEqual({ ok: true, query: { filters: {}, page: 1 } });
  });

  it.each([
    [
      'category=it,unknown',
      'category',
      'The category must be one or more of: it, finance, banking, sales, marketing, education, healthcare, engineering, design, hr, logistics, hospitality, legal, customer-service, administration, other.',
    ],
    [
      'category=it,',
      'category',
      'The category must be one or more of: it, finance, banking, sales, marketing, education, healthcare, engineering, design, hr, logistics, hospitality, legal, customer-service, administration, other.',
    ],
    [
      'category=IT',
      'category',
      'The category must be one or more of: it, finance, banking, sales, marketing, education, healthcare, engineering, design, hr, logistics, hospitality, legal, customer-service, administration, other.',
    ],
    [
      'city=paris',
      'city',
      'The city must be one or more of: baku, ganja, sumgait, mingachevir, lankaran, shaki, shirvan, nakhchivan, quba, khirdalan, gabala, shamakhi.',
    ],
    [`city=${Array(21).fill('baku').join(',')}`, 'city', 'The city must have at most 20 entries.'],
    ['q=%20-%20', 'q', 'The q must contain a letter or a digit.'],
    [`q=${'a'.repeat(101)}`, 'q', 'The q must be between 1 and 100 characters.'],
    // The blanks inside count as sent (§14): 152 characters once its ends are trimmed, however few its words.
    [`q=%20a${'%20'.repeat(150)}b%20`, 'q', 'The q must be between 1 and 100 characters.'],
    ['q=a%20b%20c%20d%20e%20f%20g%20h%20i%20j%20k', 'q', 'The q must have at most 10 words.'],
    ['facets=type,salary', 'facets', 'The facets must be one or more of: type, category, city, workplace.'],
    ['workplace=office', 'workplace', 'The workplace must be one or more of: onsite, hybrid, remote.'],
    ['workplace=Remote', 'workplace', 'The workplace must be one or more of: onsite, hybrid, remote.'],
    [
      `workplace=${Array(21).fill('remote').join(',')}`,
      'workplace',
      'The workplace must have at most 20 entries.',
    ],
    ['include=salary', 'include', 'The include must be one or more of: pay, workplace, locations.'],
    ['include=pay,', 'include', 'The include must be one or more of: pay, workplace, locations.'],
    ['include=pay&include=workplace', 'include', 'The include must not be given more than once.'],
    ['category=it&category=finance', 'category', 'The category must not be given more than once.'],
  ])('refuses %p', (query, name, message) => {
    const result = parse(query);
    expect(result.ok ? undefined : result.errors).toEqual({ [name]: [message] });
  });

  it('takes 20 entries (repeats included) and 100 characters of 10 words', () => {
    expect(parse(`city=${Array(20).fill('baku').join(',')}`).ok).toBe(true);
    expect(parse(`q=${encodeURIComponent(`${'ə'.repeat(82)} a b c d e f g h i`)}`).ok).toBe(true);
    // 100 characters with blanks inside, and blanks beyond them at its ends: trimmed, then counted.
    expect(parse(`q=${encodeURIComponent(`   a${' '.repeat(98)}b   `)}`).ok).toBe(true);
  });

  it('names each invalid parameter after lang and updated_since, before cursor', () => {
    const result = parse('include=x&cursor=x&facets=no&q=-&workplace=x&city=x&category=x&lang=xx&type=9');
    expect(Object.keys(result.ok ? {} : result.errors)).toEqual([
      'type',
      'lang',
      'category',
      'city',
      'workplace',
      'q',
      'facets',
      'include',
      'cursor',
    ]);
  });

  it('reads workplace codes once each in their order, and include once each in its order, facets=workplace last', () => {
    expect(parse('workplace=remote,onsite,remote&include=workplace,pay,pay&facets=workplace,type')).toEqual({
      ok: true,
      query: {
        filters: {},
        search: { workplace: ['onsite', 'remote'], facets: ['type', 'workplace'] },
        page: 1,
        include: ['pay', 'workplace'],
      },
    });
  });

  it('takes include with updated_since (a sync), and alone is no search', () => {
    expect(parse('updated_since=2026-01-01T00:00:00Z&include=pay')).toMatchObject({
      ok: true,
      query: { include: ['pay'] },
    });
    expect(parse('include=workplace')).toEqual({
      ok: true,
      query: { filters: {}, page: 1, include: ['workplace'] },
    });
  });

  it('refuses each with updated_since, as type', () => {
    const result = parse(
      'updated_since=2026-01-01T00:00:00Z&category=it&city=baku&workplace=remote&q=dev&facets=type',
    );
    expect(result.ok ? undefined : result.errors).toEqual({
      category: ['The category cannot be combined with updated_since.'],
      city: ['The city cannot be combined with updated_since.'],
      workplace: ['The workplace cannot be combined with updated_since.'],
      q: ['The q cannot be combined with updated_since.'],
      facets: ['The facets cannot be combined with updated_since.'],
    });
  });
});

describe('parseVacancyId', () => {
  it('takes the canonical decimal form of 1 to 2^53 − 1, and nothing else', () => {
    expect(parseVacancyId('1')).toBe(1);
    expect(parseVacancyId('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    for (const segment of ['0', '01', '1e3', '0x1', ' 1', '1 ', '١', '9007199254740992', '99999999999999999'])
      expect(parseVacancyId(segment)).toBeUndefined();
  });
});

describe('readVacanciesQuery: a cursor beside an invalid parameter', () => {
  const since = Date.parse('2026-01-01T00:00:00Z');
  const syncCursor = encodeSyncCursor(
    { position: new Uint8Array(CHANGE_KEY_BYTES).fill(3), snapshot: since + 60_000, total: 40 },
    syncBinding('acme', since),
  );

  it("checks a sync's cursor against its own walk, whatever else is invalid: only the other parameter is named", () => {
    const result = parse(`updated_since=2026-01-01T00:00:00Z&per_page=500&cursor=${syncCursor}`);
    expect(result.ok ? undefined : result.errors).toEqual({
      per_page: ['The per_page must be between 1 and 100.'],
    });
  });

  it("names a sync's cursor made for another updated_since, beside the other parameter", () => {
    const result = parse(`updated_since=2026-01-02T00:00:00Z&per_page=500&cursor=${syncCursor}`);
    expect(result.ok ? undefined : result.errors).toEqual({
      per_page: ['The per_page must be between 1 and 100.'],
      cursor: ['The cursor is invalid.'],
    });
  });

  it("takes a sync's cursor of its walk, and reads it back", () => {
    const result = parse(`updated_since=2026-01-01T00:00:00Z&per_page=5&cursor=${syncCursor}&page=2`);
    expect(result).toMatchObject({ ok: true, query: { cursor: syncCursor, page: 2, perPage: 5 } });
  });
});
