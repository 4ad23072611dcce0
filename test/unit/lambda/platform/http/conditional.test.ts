/** Conditional requests: ETags, `If-None-Match` and HTTP-dates (`lambda/platform/http/conditional.ts`). */
import { describe, expect, it } from '@jest/globals';
import { httpDate, ifNoneMatchMatches, strongETag } from '../../../../../lambda/platform/http/conditional';

describe('conditional requests', () => {
  it('match If-None-Match against an ETag: lists, weak prefixes and *', () => {
    const etag = strongETag('az', '{"a":1}');
    expect(ifNoneMatchMatches(etag, etag)).toBe(true);
    expect(ifNoneMatchMatches(`"x", ${etag}`, etag)).toBe(true);
    expect(ifNoneMatchMatches(`"x",${etag} ,`, etag)).toBe(true);
    expect(ifNoneMatchMatches(`W/${etag}`, etag)).toBe(true);
    expect(ifNoneMatchMatches('*', etag)).toBe(true);
    expect(ifNoneMatchMatches(' * ', etag)).toBe(true);
    expect(ifNoneMatchMatches('"x"', etag)).toBe(false);
    expect(ifNoneMatchMatches('', etag)).toBe(false);
  });

  it.each([
    // `*` is the whole value or nothing (RFC 9110 §13.1.2: "*" / #entity-tag).
    ['"x", *'],
    ['*, *'],
    // Entity tags are quoted, and nothing else is in the list.
    ['UNQUOTED'],
    ['xETAGx'],
    ['ETAG ETAG'],
    ['ETAGETAG'],
    ['w/ETAG'],
    ['W/ ETAG'],
    ['"a"b", ETAG'],
    ['ETAG;q=1'],
  ])('ignores an If-None-Match that is not one: %s', (header) => {
    const etag = strongETag('az', '{"a":1}');
    const given = header.replaceAll('ETAG', etag).replace('UNQUOTED', etag.replaceAll('"', ''));
    expect(ifNoneMatchMatches(given, etag)).toBe(false);
  });

  it('reads the three forms of an HTTP-date (RFC 9110 §5.6.7), and nothing else', () => {
    const moment = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(httpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(moment);
    expect(httpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(moment);
    expect(httpDate('Sun Nov  6 08:49:37 1994')).toBe(moment);
    expect(httpDate('Sun Nov 06 08:49:37 1994')).toBe(moment);
    expect(httpDate('Sun Nov 16 08:49:37 1994')).toBe(Date.UTC(1994, 10, 16, 8, 49, 37));
    // A year below 100 is that year, not the 1900s.
    expect(httpDate('Mon, 01 Jan 0001 00:00:00 GMT')).toBe(Date.parse('0001-01-01T00:00:00Z'));
    // A leap second is in the grammar.
    expect(httpDate('Sat, 31 Dec 2016 23:59:60 GMT')).toBe(Date.UTC(2017, 0, 1));
    for (const text of [
      '2100',
      '',
      '2100-01-01T00:00:00Z',
      'Sun, 06 Nov 1994 08:49:37 gmt',
      'sun, 06 Nov 1994 08:49:37 GMT',
      'Sun, 06 nov 1994 08:49:37 GMT',
      'Sun, 6 Nov 1994 08:49:37 GMT',
      'Sun,06 Nov 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 08:49:37 UTC',
      'Sun, 06 Nov 1994 08:49:37 +0000',
      'Sun, 06 Nov 94 08:49:37 GMT',
      ' Sun, 06 Nov 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 08:49:37 GMT ',
      'Sun, 06 Nov 1994 08:49 GMT',
      'Sun, 06 Nov 1994 24:00:00 GMT',
      'Sun, 06 Nov 1994 08:60:00 GMT',
      'Sun, 06 Nov 1994 08:49:61 GMT',
      'Thu, 31 Feb 2100 00:00:00 GMT',
      'Mon, 29 Feb 2100 00:00:00 GMT',
      'Mon, 00 Nov 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT',
      'Sun, 06-Nov-94 08:49:37 GMT',
      'Sunday, 06 Nov 1994 08:49:37 GMT',
      'Sunday, 06-Nov-1994 08:49:37 GMT',
      'Sun Nov 6 08:49:37 1994',
      'Sun Nov  6 08:49:37 1994 GMT',
      'Sun, 06 Nov 1994 08:49:37.000 GMT',
    ])
      expect([text, httpDate(text)]).toEqual([text, undefined]);
  });

  it('reads a two-digit year as the RFC says: more than 50 years ahead is a century back', () => {
    const now = Date.UTC(2026, 11, 7);
    expect(httpDate('Friday, 01-Jan-27 00:00:00 GMT', now)).toBe(Date.UTC(2027, 0, 1));
    expect(httpDate('Saturday, 01-Jan-76 00:00:00 GMT', now)).toBe(Date.UTC(2076, 0, 1));
    expect(httpDate('Friday, 01-Jan-77 00:00:00 GMT', now)).toBe(Date.UTC(1977, 0, 1));
    expect(httpDate('Tuesday, 29-Feb-00 00:00:00 GMT', now)).toBe(Date.UTC(2000, 1, 29));
  });

  it('derive distinct strong ETags from language and body', () => {
    const body = '{"a":1}';
    expect(strongETag('az', body)).toBe(strongETag('az', body));
    expect(strongETag('az', body)).not.toBe(strongETag('en', body));
    expect(strongETag('az', body)).not.toBe(strongETag('az', '{"a":2}'));
  });
});
