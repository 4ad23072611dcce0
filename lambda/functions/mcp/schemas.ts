/**
 * The MCP tools' schemas (docs/api.md#agents-mcp), made from the listing's own definitions — its parameters' limits
 * and codes (`domain/answers/query.ts`), the locales, the vacancy object's fields — so that a tool states
 * exactly what the listing accepts and answers.
 *
 * An input schema states each argument's JSON type and limits for the client, and lets every value through to the
 * listing's own validation (`tools.ts`), so that an invalid argument is refused with the listing's message, as its
 * 422 names it, rather than with the schema library's. An output schema is checked by the SDK against every result.
 */
import * as z from 'zod/v4';
import { FACET_NAMES, FILTER_CODES, LIMITS } from '../../domain/answers/query';
import {
  LOCALES,
  SERVED_SALARY_PERIODS,
  VACANCY_OBJECT,
  VACANCY_TYPES,
  WORKPLACES,
} from '../../domain/schema/vacancy';
import { DICTIONARY } from '../../domain/vacancy/dictionary';
import { INCLUDE_NAMES } from '../../domain/vacancy/pay-and-place';

/** An argument as its schema states it (JSON Schema) while any value passes to the listing's validation. */
const stated = (schema: Record<string, unknown>) => z.unknown().optional().meta(schema);

const integer = (limits: { readonly min: number; readonly max: number }, description: string) =>
  stated({ type: 'integer', minimum: limits.min, maximum: limits.max, description });
const codes = (values: readonly (string | number)[], maxItems: number | undefined, description: string) =>
  stated({
    type: 'array',
    items: { type: 'string', enum: [...values] },
    ...(maxItems !== undefined && { maxItems }),
    description,
  });
const lang = stated({
  type: 'string',
  enum: [...LOCALES],
  description: "The answer's language (labels, dates): the deployment's default when absent.",
});
const include = codes(
  INCLUDE_NAMES,
  INCLUDE_NAMES.length,
  "Add to each job its pay's currency and period (pay), where the work is done (workplace) and every city it is in (locations).",
);

/** `search_vacancies`' arguments: the listing's query parameters (docs/api.md#query-parameters), by the same names. */
export const SEARCH_INPUT = {
  q: stated({
    type: 'string',
    minLength: LIMITS.q.min,
    maxLength: LIMITS.q.max,
    description: `Words, each the start of a word of the title, the field or the city (at most ${LIMITS.q.words} words).`,
  }),
  category: codes(FILTER_CODES.category, LIMITS.codes.max, 'Fields of work: any of them.'),
  city: codes(FILTER_CODES.city, LIMITS.codes.max, 'Cities: any of them.'),
  type: stated({
    type: 'integer',
    enum: [...VACANCY_TYPES],
    description: `The type of job: ${VACANCY_TYPES.map((code) => `${code} ${DICTIONARY.type[code].en}`).join(', ')}.`,
  }),
  experience_min: integer(LIMITS.experience, 'Jobs asking at least this many years of experience.'),
  experience_max: integer(LIMITS.experience, 'Jobs asking at most this many years of experience.'),
  workplace: codes(FILTER_CODES.workplace, LIMITS.codes.max, 'Where the work is done: any of them.'),
  facets: codes(FACET_NAMES, undefined, 'Count the matching jobs by each of these, too.'),
  page: integer(LIMITS.page, 'The page, from 1.'),
  per_page: integer(LIMITS.perPage, 'Jobs per page.'),
  lang,
  include,
  cursor: stated({
    type: 'string',
    description:
      'To read the next page: pagination.cursor of the previous answer, with the same other arguments (then page is not needed).',
  }),
};

/** `get_vacancy`'s arguments: the vacancy's id, and the answer's language. */
export const VACANCY_INPUT = {
  id: z
    .unknown()
    .meta({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "The job's id." }),
  lang,
  include,
};

/** A field of the vacancy object, by its kind (`domain/schema/vacancy.ts`). */
const FIELD_KINDS = {
  id: z.number().int(),
  text: z.string(),
  label: z.string(),
  amount: z.number().int().nullable(),
  date: z.string(),
  dateTime: z.string(),
} as const;

/**
 * The vacancy object: its 15 fields, as the listing shows them (docs/api.md#the-vacancy-object), and what `include`
 * adds after them (docs/api.md#pay-and-place).
 */
const vacancyObject = z.object({
  ...Object.fromEntries(Object.entries(VACANCY_OBJECT).map(([field, kind]) => [field, FIELD_KINDS[kind]])),
  salary_currency: z.string().optional(),
  salary_period: z.enum(SERVED_SALARY_PERIODS).nullable().optional(),
  workplace: z.enum(WORKPLACES).optional(),
  locations: z
    .array(z.object({ city: z.string(), label: z.string() }))
    .optional()
    .describe('Every city of the job, the main one first.'),
});

const facetValues = z.array(
  z.object({ code: z.union([z.string(), z.number().int()]), label: z.string(), count: z.number().int() }),
);

/** `search_vacancies`' result: the listing's answer, its pagination with a cursor instead of links. */
export const SEARCH_OUTPUT = {
  company: z.string(),
  data: z.array(vacancyObject),
  pagination: z.object({
    current_page: z.number().int(),
    last_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    cursor: z
      .string()
      .nullable()
      .describe('Pass it back as the cursor argument for the next page; null on the last page.'),
  }),
  facets: z.object(Object.fromEntries(FACET_NAMES.map((name) => [name, facetValues.optional()]))).optional(),
};

/** `get_vacancy`'s result: the one-vacancy route's answer. */
export const VACANCY_OUTPUT = {
  company: z.string(),
  data: vacancyObject,
};
