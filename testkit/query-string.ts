/**
 * The vacancies route's query string read and checked (`lambda/functions/vacancies/query-string.ts`), in the form the
 * query tests state it: the question but its vendor and with its cursor as given — a sync's as the listing's filters
 * left empty and its `updatedSince` — or the 422's fields.
 */
import { InvalidQueryError } from '../lambda/domain/answers/errors';
import { type MultiValueParameters, readVacanciesQuery } from '../lambda/functions/vacancies/query-string';
import { multiValueQuery } from './events';

/** What a query string comes to: the question (`ok`), or every invalid parameter with its reasons. */
export function parseListingQuery(parameters: MultiValueParameters, vendorId = 'acme') {
  try {
    const read = readVacanciesQuery(vendorId, parameters);
    if (read.kind === 'listing') {
      const { vendorId: _, cursor, ...query } = read.query;
      return { ok: true as const, query: { ...query, ...(cursor && { cursor: cursor.text }) } };
    }
    const { vendorId: _, cursor, since, ...query } = read.query;
    return {
      ok: true as const,
      query: { filters: {}, ...query, updatedSince: since, ...(cursor && { cursor: cursor.text }) },
    };
  } catch (error) {
    if (error instanceof InvalidQueryError) return { ok: false as const, errors: error.fields };
    throw error;
  }
}

/** `parseListingQuery` of a query string as a client writes it. */
export const parseQueryString = (query: string, vendorId?: string) =>
  parseListingQuery(multiValueQuery(query), vendorId);
