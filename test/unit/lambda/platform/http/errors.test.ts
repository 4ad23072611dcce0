/** The error envelope and HTTP errors (`lambda/platform/http/errors.ts`). */
import { describe, expect, it } from '@jest/globals';
import { UnavailableError } from '../../../../../lambda/platform/aws/errors';
import {
  errorEnvelope,
  errorResponse,
  HttpError,
  invalidInput,
  serviceUnavailable,
  toHttpError,
} from '../../../../../lambda/platform/http/errors';

describe('HTTP errors', () => {
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
    expect(error.details.headers).toEqual({ 'Retry-After': '1' });
  });

  it('map every failure to an HTTP error by its type, never by its message', () => {
    const invalid = invalidInput({ page: ['x'] });
    expect(toHttpError(invalid)).toBe(invalid);
    const aws = (name: string, fault: 'client' | 'server') =>
      Object.assign(new Error('Unauthorized'), { name, $fault: fault });
    for (const unavailable of [
      new UnavailableError('x'),
      aws('ProvisionedThroughputExceededException', 'client'),
      aws('InternalServerError', 'server'),
      Object.assign(new Error('The operation was aborted'), { name: 'AbortError' }),
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
    ]) {
      expect([unavailable.name, toHttpError(unavailable).statusCode]).toEqual([unavailable.name, 503]);
    }
    for (const bug of [
      aws('ValidationException', 'client'),
      new TypeError('Service Unavailable.'),
      'a string',
    ]) {
      expect(toHttpError(bug).statusCode).toBe(500);
    }
  });

  it('render an HTTP error as the whole response: envelope, error headers, its own, the request id', () => {
    expect(errorResponse(serviceUnavailable(new Error('secret')), 'r9')).toEqual({
      statusCode: 503,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
        'Retry-After': '1',
        'X-Request-Id': 'r9',
      },
      body: '{"status":"error","message":"Service Unavailable.","request_id":"r9"}',
    });
  });

  it('render a closed vacancy’s 410 with closed_at between the message and the request id, its headers over the error’s', () => {
    const gone = new HttpError(410, {
      message: 'This vacancy is no longer open.',
      fields: { closed_at: '2026-11-23T10:15:30.123Z' },
      headers: { 'Cache-Control': 'private, no-cache', Vary: 'Accept' },
    });
    expect(errorResponse(gone, 'r10')).toEqual({
      statusCode: 410,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'private, no-cache',
        Vary: 'Accept',
        'X-Request-Id': 'r10',
      },
      body: '{"status":"error","message":"This vacancy is no longer open.","closed_at":"2026-11-23T10:15:30.123Z","request_id":"r10"}',
    });
  });
});
