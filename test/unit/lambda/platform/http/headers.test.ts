/** Reading a request's headers (`lambda/platform/http/headers.ts`). */
import { describe, expect, it } from '@jest/globals';
import { requestHeader } from '../../../../../lambda/platform/http/headers';

describe('request headers', () => {
  it('read headers case-insensitively, joining repeated ones', () => {
    const event = {
      headers: { 'accept-language': 'en' },
      multiValueHeaders: { 'If-None-Match': ['"a"', '"b"'] },
    };
    expect(requestHeader(event, 'Accept-Language')).toBe('en');
    expect(requestHeader(event, 'if-none-match')).toBe('"a", "b"');
    expect(requestHeader({ headers: {}, multiValueHeaders: {} }, 'Accept')).toBeUndefined();
  });
});
