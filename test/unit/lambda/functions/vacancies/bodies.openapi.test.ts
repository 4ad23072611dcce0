/**
 * The OpenAPI document against the code it describes: the dictionary's labels are its enums, per locale; the
 * 15 fields of the vacancy object are its required properties, in order; the parameters and error messages are
 * the code's; the generated client types are up to date; and the response check really refuses what the
 * document does not describe.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import openapiTS, { astToString } from 'openapi-typescript';
import type { components } from '../../../../../examples/generated-client/openapi-types';
import { VACANCY_GONE, VACANCY_NOT_FOUND } from '../../../../../lambda/domain/answers/errors';
import { LIMITS } from '../../../../../lambda/domain/answers/query';
import { KEY_USE_MESSAGES } from '../../../../../lambda/domain/keys/key-use';
import { LOCALES } from '../../../../../lambda/domain/schema/vacancy';
import { UNENCODED_QUERY } from '../../../../../lambda/domain/service/gateway-answers';
import { DICTIONARY } from '../../../../../lambda/domain/vacancy/dictionary';
import type { ListingResponse, Pagination } from '../../../../../lambda/functions/vacancies/bodies';
import { ERROR_MESSAGES } from '../../../../../lambda/platform/http/errors';
import { expectDocumented, type ObservedResponse, OPENAPI } from '../../../../../testkit/openapi';
import { SPEC_VACANCY_FIELDS } from '../../../../../testkit/spec';

/**
 * The code's response types and the document's, checked by the compiler (`npm run typecheck`): each is
 * assignable to the other, so a field added, renamed or retyped on one side only fails the build.
 */
type Agree<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Documented = components['schemas'];
const typesAgree: {
  pagination: Agree<Pagination, Documented['Pagination']>;
  listing: Agree<
    Omit<ListingResponse, 'facets'>,
    Omit<Documented['ListingAz'], 'data' | 'facets'> & { data: Documented['Vacancy'][] }
  >;
  // Facets: the same names (each value's shape is checked on real answers by `expectDocumented`).
  facets: Agree<keyof NonNullable<ListingResponse['facets']>, keyof Documented['FacetsAz']>;
} = { pagination: true, listing: true, facets: true };

type Json = Record<string, unknown>;
const schemas = (OPENAPI.components as Json).schemas as Record<string, Json>;
const capitalised = (locale: string) => locale[0]?.toUpperCase() + locale.slice(1);

describe('docs/openapi.yaml', () => {
  it.each([
    ['category', 'Category'],
    ['city', 'City'],
    ['type', 'Type'],
    ['salary_type', 'SalaryType'],
    ['workplace', 'Workplace'],
  ] as const)("has the dictionary's %s labels as its enums, per locale", (kind, schema) => {
    for (const locale of LOCALES) {
      const labels = Object.values(DICTIONARY[kind]).map((entry) => entry[locale]);
      expect(schemas[`${schema}${capitalised(locale)}`]?.enum).toEqual(labels);
    }
  });

  it("requires exactly the 15 fields of the vacancy object, in the specification's order", () => {
    expect(schemas.Vacancy?.required).toEqual([...SPEC_VACANCY_FIELDS]);
    expect(Object.keys(schemas.Vacancy?.properties as Json)).toEqual([...SPEC_VACANCY_FIELDS]);
    // Closed per locale, the sync's vacancies with their two fields more: no other field is allowed.
    for (const name of ['VacancyAz', 'VacancyEn', 'SyncedVacancyAz', 'SyncedVacancyEn'])
      expect(schemas[name]?.unevaluatedProperties).toBe(false);
  });

  it("states the code's limits for every query parameter, and its message for every error", () => {
    const parameters = (OPENAPI.components as Json).parameters as Record<
      string,
      { name: string; schema: Json }
    >;
    const byName = Object.fromEntries(Object.values(parameters).map((p) => [p.name, p.schema]));
    expect(byName.per_page).toMatchObject({ minimum: LIMITS.perPage.min, maximum: LIMITS.perPage.max });
    expect(byName.page).toMatchObject({ minimum: LIMITS.page.min, maximum: LIMITS.page.max });
    expect(byName.experience_min).toMatchObject({
      minimum: LIMITS.experience.min,
      maximum: LIMITS.experience.max,
    });
    expect(byName.type?.enum).toEqual(Object.keys(DICTIONARY.type).map(Number));
    const messages = Object.values(schemas)
      .flatMap((schema) => {
        const message = (schema.properties as Json | undefined)?.message as Json | undefined;
        return [message?.const, ...((message?.enum as unknown[] | undefined) ?? [])];
      })
      .filter((message): message is string => typeof message === 'string');
    const codeMessages = [
      ...Object.values(ERROR_MESSAGES),
      VACANCY_NOT_FOUND,
      VACANCY_GONE,
      ...Object.values(KEY_USE_MESSAGES),
      UNENCODED_QUERY.message,
    ];
    for (const message of messages) expect(codeMessages).toContain(message);
    expect(new Set(messages)).toEqual(new Set(codeMessages));
    const error = ((schemas.Error?.properties ?? {}) as Json).message as { enum: string[] };
    // The envelope's messages: the table's, and the 400 that names an unencoded query (the local server's).
    expect(new Set(error.enum)).toEqual(new Set([...Object.values(ERROR_MESSAGES), UNENCODED_QUERY.message]));
  });

  it('attaches to the operation every answer a client calling it can get, and describes the 405 of other methods', () => {
    const operation = ((OPENAPI.paths as Json)['/vendor/vacancies'] as Json).get as Json;
    expect(Object.keys(operation.responses as Json).sort()).toEqual(
      ['200', '304', '400', '401', '403', '404', '410', '422', '429', '500', '502', '503'].sort(),
    );
    const vacancy = ((OPENAPI.paths as Json)['/vendor/vacancies/{id}'] as Json).get as Json;
    expect(Object.keys(vacancy.responses as Json).sort()).toEqual(
      ['200', '304', '400', '401', '403', '404', '410', '422', '429', '500', '502', '503'].sort(),
    );
    for (const path of ['/vendor/vacancies', '/vendor/vacancies/{id}'])
      expect((OPENAPI['x-other-methods'] as Json)[path]).toEqual({
        '204': { $ref: '#/components/responses/Preflight' },
        '405': { $ref: '#/components/responses/MethodNotAllowed' },
      });
  });

  it("has response types the compiler finds equal to the code's", () => {
    expect(typesAgree).toEqual({ pagination: true, listing: true, facets: true });
  });

  it('has client types generated from it that are up to date (npm run openapi:types)', async () => {
    const generated = astToString(
      await openapiTS(new URL('../../../../../docs/openapi.yaml', import.meta.url)),
    );
    const committed = readFileSync(
      new URL('../../../../../examples/generated-client/openapi-types.ts', import.meta.url),
      'utf8',
    );
    expect(committed).toContain(generated.trim());
  });
});

describe('the response check', () => {
  const ok: ObservedResponse = {
    method: 'GET',
    target: '/vendor/vacancies?per_page=1',
    status: 401,
    headers: new Map([
      ['content-type', 'application/json; charset=utf-8'],
      ['cache-control', 'no-store'],
      ['www-authenticate', 'Bearer'],
      ['x-request-id', 'r1'],
    ]),
    body: '{"status":"error","message":"Unauthenticated.","request_id":"r1"}',
  };
  const withHeader = (name: string, value?: string) => {
    const headers = new Map(ok.headers);
    if (value === undefined) headers.delete(name);
    else headers.set(name, value);
    return { ...ok, headers };
  };

  it('accepts a response the document describes', () => {
    expect(() => expectDocumented(ok)).not.toThrow();
  });

  it.each([
    ['an undocumented status', { ...ok, status: 418 }],
    ['a 404 on the documented path in the body of another', { ...ok, status: 404 }],
    ['a 405 for GET', { ...ok, status: 405 }],
    ['a missing X-Request-Id', withHeader('x-request-id')],
    ['a missing WWW-Authenticate', withHeader('www-authenticate')],
    ['a wrong Cache-Control', withHeader('cache-control', 'private')],
    ['another media type', withHeader('content-type', 'text/plain')],
    ['another message', { ...ok, body: '{"status":"error","message":"Forbidden.","request_id":"r1"}' }],
    [
      'a property too many',
      { ...ok, body: '{"status":"error","message":"Unauthenticated.","request_id":"r1","why":"x"}' },
    ],
    ['no JSON', { ...ok, body: 'Unauthorized' }],
  ])('refuses %s', (_case, response) => {
    expect(() => expectDocumented(response)).toThrow();
  });
});
