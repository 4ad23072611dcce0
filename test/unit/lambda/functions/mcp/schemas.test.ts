/**
 * The tools' schemas state the listing's own parameters (docs/api.md#agents-mcp): `search_vacancies` takes every
 * parameter the listing recognises but a sync's, by the same names — so that a parameter the listing gains fails here
 * until the tool takes it too — each with the listing's limits and codes, and lets any value through to the listing's
 * validation; `get_vacancy` takes `id` (required) and `lang`.
 */
import { describe, expect, it } from '@jest/globals';
import * as z from 'zod/v4';
import { FACET_NAMES, FILTER_CODES, LIMITS } from '../../../../../lambda/domain/answers/query';
import { VACANCY_FIELDS } from '../../../../../lambda/domain/schema/vacancy';
import { SEARCH_INPUT, SEARCH_OUTPUT, VACANCY_INPUT } from '../../../../../lambda/functions/mcp/schemas';
import { SEARCH_ARGUMENTS } from '../../../../../lambda/functions/mcp/tools';
import { RECOGNISED_PARAMETERS } from '../../../../../lambda/functions/vacancies/query-string';

const jsonSchema = (shape: z.ZodRawShape) =>
  z.toJSONSchema(z.object(shape), { io: 'input' }) as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };

describe('the tools’ schemas', () => {
  it("take every parameter the listing recognises but updated_since, by the listing's names", () => {
    const listing = RECOGNISED_PARAMETERS.filter((name) => name !== 'updated_since');
    expect(Object.keys(SEARCH_INPUT).sort()).toEqual([...listing].sort());
    // Each one becomes a query parameter (the cursor, the tool's own, too).
    expect([...Object.keys(SEARCH_ARGUMENTS), 'cursor'].sort()).toEqual([...listing].sort());
  });

  it("state the listing's limits and codes, and require nothing of a search", () => {
    const { properties, required } = jsonSchema(SEARCH_INPUT);
    expect(required ?? []).toEqual([]);
    expect(properties.per_page).toMatchObject({
      type: 'integer',
      minimum: LIMITS.perPage.min,
      maximum: LIMITS.perPage.max,
    });
    expect(properties.category).toMatchObject({
      type: 'array',
      maxItems: LIMITS.codes.max,
      items: { type: 'string', enum: FILTER_CODES.category },
    });
    expect(properties.facets).toMatchObject({ items: { enum: FACET_NAMES } });
    expect(properties.q).toMatchObject({ type: 'string', minLength: LIMITS.q.min, maxLength: LIMITS.q.max });
    expect(properties.type).toMatchObject({ type: 'integer', enum: [1, 2, 3, 4] });
    expect(jsonSchema(VACANCY_INPUT).required).toEqual(['id']);
  });

  it("let any value through to the listing's validation, which names it as its 422 does", () => {
    const parsed = z.object(SEARCH_INPUT).safeParse({ per_page: 'many', type: [1], category: 'it', q: 7 });
    expect(parsed.success).toBe(true);
  });

  it("describe a result's vacancies by the vacancy object's 15 fields, and what include adds after them", () => {
    const output = z.toJSONSchema(z.object(SEARCH_OUTPUT), { io: 'output' }) as unknown as {
      properties: { data: { items: { properties: Record<string, unknown>; required: string[] } } };
    };
    expect(Object.keys(output.properties.data.items.properties)).toEqual([
      ...VACANCY_FIELDS,
      'salary_currency',
      'salary_period',
      'workplace',
      'locations',
    ]);
    expect(output.properties.data.items.required).toEqual(VACANCY_FIELDS);
  });
});
