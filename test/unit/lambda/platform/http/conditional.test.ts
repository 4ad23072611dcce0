/** Conditional requests: ETags and `If-None-Match` (`lambda/platform/http/conditional.ts`). */
import { describe, expect, it } from '@jest/globals';
import { ifNoneMatchMatches, strongETag } from '../../../../../lambda/platform/http/conditional';

describe('conditional requests', () => {
  it('match If-None-Match against an ETag: lists, weak prefixes and *', () => {
    const etag = strongETag('az', '{"a":1}');
    expect(ifNoneMatchMatches(etag, etag)).toBe(true);
    expect(ifNoneMatchMatches(`"x", ${etag}`, etag)).toBe(true);
    expect(ifNoneMatchMatches(`W/${etag}`, etag)).toBe(true);
    expect(ifNoneMatchMatches('*', etag)).toBe(true);
    expect(ifNoneMatchMatches('"x"', etag)).toBe(false);
  });

  it('derive distinct strong ETags from language and body', () => {
    const body = '{"a":1}';
    expect(strongETag('az', body)).toBe(strongETag('az', body));
    expect(strongETag('az', body)).not.toBe(strongETag('en', body));
    expect(strongETag('az', body)).not.toBe(strongETag('az', '{"a":2}'));
  });
});
