/**
 * Every example answer of docs/openapi.yaml — what /docs shows beside "Test Request" — is the answer `npm start`
 * gives on the demo data (lib/local/demo-seed.json) to the request it is the example of: each example is run, and its
 * answer compared whole. Only what differs from one start to another is set aside (docs/api.md#the-local-server): the
 * `request_id` (a new UUID per request), a cursor's value in a link (it holds the walk's start, a time) and a link's
 * origin (the document shows `http://127.0.0.1:3000`, the test's server has a port of its own). A `closed_at` is
 * compared as it is: the demo seed's closed vacancies closed at moments of its story, whenever it is loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type NpmStart, startNpmStart } from '../../../testkit/npm-start';
import { OPENAPI } from '../../../testkit/openapi';

const PASHA = 'vvk_demo_pasha_bank_primary';
const CASPIAN = 'vvk_demo_caspian_digital';

/** The request each example answers, by where the example is in the document. */
const REQUESTS: Readonly<Record<string, { path: string; key: string; accept?: string }>> = {
  'paths./vendor/vacancies.get.200.application/json.english': {
    path: '/vendor/vacancies?per_page=2&lang=en',
    key: PASHA,
  },
  'paths./vendor/vacancies.get.200.application/json.azerbaijani': {
    path: '/vendor/vacancies?type=1&per_page=1&lang=az',
    key: PASHA,
  },
  'paths./vendor/vacancies.get.200.application/json.search': {
    path: '/vendor/vacancies?city=baku,ganja&q=mutexessis&facets=type,city&per_page=1&lang=az',
    key: PASHA,
  },
  'paths./vendor/vacancies.get.200.application/json.payAndPlace': {
    path: '/vendor/vacancies?include=pay,workplace&workplace=hybrid,remote&facets=workplace&per_page=1&lang=en',
    key: PASHA,
  },
  'paths./vendor/vacancies.get.200.application/json.manyPlaces': {
    path: '/vendor/vacancies?city=ganja&include=locations&facets=city&per_page=1&lang=en',
    key: PASHA,
  },
  'paths./vendor/vacancies/{id}.get.200.application/json.english': {
    path: '/vendor/vacancies/1028?lang=en',
    key: PASHA,
  },
  'paths./vendor/vacancies/{id}.get.200.application/ld+json.english': {
    path: '/vendor/vacancies/1028?lang=en',
    key: PASHA,
    accept: 'application/ld+json',
  },
  'components.responses.VacancyGone.application/json': { path: '/vendor/vacancies/1036', key: CASPIAN },
  'components.responses.InvalidParameters.application/json': {
    path: '/vendor/vacancies?type=9&per_page=1000',
    key: PASHA,
  },
};

type Json = Record<string, unknown>;
interface Content {
  example?: unknown;
  examples?: Record<string, { value: unknown; description?: string }>;
}

/** Every example answer of the document (the requests' examples, such as `POST /mcp`'s body, are not answers). */
function exampleAnswers(): Map<string, unknown> {
  const found = new Map<string, unknown>();
  const add = (where: string, content: Record<string, Content> | undefined) => {
    for (const [type, media] of Object.entries(content ?? {})) {
      if (media.example !== undefined) found.set(`${where}.${type}`, media.example);
      for (const [name, example] of Object.entries(media.examples ?? {}))
        found.set(`${where}.${type}.${name}`, example.value);
    }
  };
  for (const [path, item] of Object.entries(OPENAPI.paths as Record<string, Record<string, Json>>))
    for (const [method, operation] of Object.entries(item))
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>))
        add(`paths.${path}.${method}.${status}`, response.content as Record<string, Content> | undefined);
  for (const [name, response] of Object.entries(
    (OPENAPI.components as { responses: Record<string, Json> }).responses,
  ))
    add(`components.responses.${name}`, response.content as Record<string, Content> | undefined);
  return found;
}

/** An answer with what varies from one start to another set to a placeholder (the module's comment). */
function steady(value: unknown, origin: string): unknown {
  if (Array.isArray(value)) return value.map((item) => steady(item, origin));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        key === 'request_id' ? `<${key}>` : steady(item, origin),
      ]),
    );
  if (typeof value === 'string' && value.startsWith(origin))
    return value.replace(origin, '<origin>').replace(/([?&]cursor=)[A-Za-z0-9_-]+/, '$1<cursor>');
  return value;
}

describe("the OpenAPI document's examples", () => {
  let server: NpmStart;
  beforeAll(async () => {
    server = await startNpmStart();
  }, 60_000);
  afterAll(async () => server?.stop('SIGKILL'));

  const examples = exampleAnswers();

  it('are each the answer to a request this test runs', () => {
    expect([...examples.keys()].sort()).toEqual(Object.keys(REQUESTS).sort());
  });

  it.each(Object.entries(REQUESTS))('%s is what npm start answers', async (where, request) => {
    const response = await fetch(`${server.url}${request.path}`, {
      headers: { Authorization: `Bearer ${request.key}`, ...(request.accept && { Accept: request.accept }) },
    });
    const answer = (await response.json()) as unknown;
    expect(steady(answer, server.url)).toEqual(steady(examples.get(where), 'http://127.0.0.1:3000'));
  });

  it('show a search that finds something, in the words the request collection uses', async () => {
    const search = examples.get('paths./vendor/vacancies.get.200.application/json.search') as {
      pagination: { total: number };
    };
    expect(search.pagination.total).toBeGreaterThan(0);
  });
});
