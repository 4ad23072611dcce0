// examples/generated-client/walk.ts — a client generated from docs/openapi.yaml walks a vendor's listing
// (run it: examples/generated-client/cli.ts)
import createClient from 'openapi-fetch';
import { errorMessage, refused, unreachable } from '../example-program';
// Generated from docs/openapi.yaml by `npm run openapi:types` (openapi-typescript).
import type { components, paths } from './openapi-types';

type Operation = paths['/vendor/vacancies']['get'];
export type Query = NonNullable<Operation['parameters']['query']>;
/** A page's item: a vacancy of the listing, or — on a sync, with `updated_since` — a change. */
type Item = Operation['responses'][200]['content']['application/json']['data'][number];
export type Vacancy = components['schemas']['VacancyAz'] | components['schemas']['VacancyEn'];
/** A listing's items are vacancies; a sync's carry a `status`. */
const isVacancy = (item: Item): item is Vacancy => !('status' in item);

/**
 * Every vacancy of the listing, page after page, following `next_page_url` — or `undefined` when the first page is
 * unchanged since the walk that gave `etag` (a 304: keep what you have). The next page's URL carries every
 * parameter the walk needs, so they are passed on as they are, never taken apart.
 */
export async function walkListing(
  baseUrl: string,
  apiKey: string,
  options: { query?: Query; etag?: string; fetch?: typeof fetch } = {},
): Promise<{ vacancies: Vacancy[]; etag: string } | undefined> {
  const get = options.fetch ?? fetch;
  // A request that cannot be made says where it went and what to check, in one line (../example-program.ts).
  const reachable = async (request: Request) => {
    try {
      return await get(request);
    } catch (error) {
      throw unreachable(request.url, error);
    }
  };
  const client = createClient<paths>({ baseUrl, fetch: reachable });
  const vacancies: Vacancy[] = [];
  let query: Query | undefined = options.query ?? { per_page: 100 };
  let etag = '';
  for (let page = 1; query; page += 1) {
    const headers = {
      Authorization: `Bearer ${apiKey}`,
      ...(page === 1 && options.etag && { 'If-None-Match': options.etag }),
    };
    const current: Query = query;
    const { data, error, response } = await client.GET('/vendor/vacancies', {
      params: { query: current },
      headers,
    });
    // A 304 is not an error, but openapi-fetch calls every answer outside 2xx one: look at the status first.
    if (response.status === 304) return undefined;
    if (error || !data) throw await refused(response.url, response, errorMessage(error));
    if (page === 1) etag = response.headers.get('ETag') ?? '';
    vacancies.push(...data.data.filter(isVacancy));
    const next: string | null = data.pagination.next_page_url;
    query = next ? (Object.fromEntries(new URL(next).searchParams) as Query) : undefined;
  }
  return { vacancies, etag };
}
