import { describe, expect, it } from '@jest/globals';
import { errorEnvelope, HttpError, serviceUnavailable } from '../../lambda/http/errors';
import { requestHeader } from '../../lambda/http/headers';
import { ifNoneMatchMatches, strongETag } from '../../lambda/http/middleware';

describe('HTTP helpers', () => {
  it('build the error envelope with errors only when given', () => {
    expect(errorEnvelope('Forbidden.', 'r1')).toEqual({
      status: 'error',
      message: 'Forbidden.',
      request_id: 'r1',
    });
    expect(errorEnvelope('The given data was invalid.', 'r2', { page: ['x'] })).toEqual({
      status: 'error',
      message: 'The given data was invalid.',
      errors: { page: ['x'] },
      request_id: 'r2',
    });
  });

  it('give HTTP errors the contract message and headers, and keep the cause out of the message', () => {
    const error = serviceUnavailable(new Error('ThrottlingException on table Vacancies'));
    expect(error).toBeInstanceOf(HttpError);
    expect(error.message).toBe('Service Unavailable.');
    expect(error.headers).toEqual({ 'Retry-After': '1' });
    expect(error.expose).toBe(true);
  });

  it('read headers case-insensitively, joining repeated ones', () => {
    const event = {
      headers: { 'accept-language': 'en' },
      multiValueHeaders: { 'If-None-Match': ['"a"', '"b"'] },
    };
    expect(requestHeader(event, 'Accept-Language')).toBe('en');
    expect(requestHeader(event, 'if-none-match')).toBe('"a", "b"');
    expect(requestHeader({ headers: {}, multiValueHeaders: {} }, 'Accept')).toBeUndefined();
  });

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
