/**
 * The smoke check's checks (docs/operating.md#smoke-check): each a small function that asks the deployed API one
 * thing over HTTP, as a vendor's client would, with the temporary vendor's keys, and throws a `CheckFailedError` saying
 * what it expected and what it got. They read only what the temporary vendor's keys can read; the orchestration
 * (`run.ts`) makes the vendor, bounds each check in time, and removes everything afterwards.
 */
import { setTimeout as wait } from 'node:timers/promises';
import { VACANCY_FIELDS, type Workplace } from '../../../lambda/domain/schema/vacancy';
import { PER_PAGE_LIMITS } from '../../../lambda/domain/service/limits';
import { PREFLIGHT } from '../../../lambda/domain/service/routes';
import { readRateLimitPolicy } from '../../../lambda/domain/settings/rate-tiers';
import { DEFAULT_SETTINGS } from '../../../lambda/domain/settings/settings';
import { ERROR_MESSAGES, type ErrorStatus } from '../../../lambda/platform/http/errors';
import { CheckFailedError } from '../errors';
import { type Answer, type Api, jsonOf } from './http';

/** A vacancy the smoke check imported. */
export interface SmokeVacancy {
  readonly id: number;
  readonly type: number;
  /** The pay and place its record gives, if any (docs/api.md#pay-and-place). */
  readonly salaryCurrency?: string;
  readonly workplace?: Workplace;
  /** The cities its record gives besides its `city`, Bakı, if any (docs/api.md#many-places). */
  readonly additionalCities?: readonly string[];
}

/** The change the sync check made, for the webhook check to see delivered. */
export interface SmokeChange {
  readonly id: number;
  /** When it was recorded (ms): the `updated_at` a sync reports. */
  readonly updatedAt: number;
}

/** What a webhook endpoint says of its deliveries: the last attempt's outcome, and how far it has delivered (ms). */
export interface WebhookProgress {
  readonly lastOutcome?: string;
  readonly deliveredThrough: number;
}

/** What the checks work with: the API, the temporary vendor's keys and vacancies, and the waits. */
export interface SmokeContext {
  readonly api: Api;
  /** The temporary vendor's company name and rate tier, as the API must state them. */
  readonly company: string;
  readonly rateTier: string;
  readonly secretKey: string;
  readonly publishableKey: string;
  /** The publishable key's one origin. */
  readonly origin: string;
  /** The imported vacancies, newest first (the listing's order). */
  readonly vacancies: readonly SmokeVacancy[];
  /** How long a change may take to reach a sync or a webhook, and how often to look meanwhile (ms). */
  readonly waits: { readonly changeMs: number; readonly pollMs: number };
  /** Closes one of the vacancies with the ops CLI's own writer; resolves with the change. */
  readonly closeVacancy: (id: number) => Promise<SmokeChange>;
  /** The URL of the temporary vendor's `indeed` feed; absent when the target serves no feeds. */
  readonly feedUrl?: string;
  /** The webhook endpoint's progress; absent without `--webhook-url`. */
  readonly webhookProgress?: () => Promise<WebhookProgress>;
  /** The change `syncSeesAChange` made (set by it). */
  change?: SmokeChange;
}

/** A check: resolves when it holds, throws a `CheckFailedError` (or aborts with `signal`) otherwise. */
export type Check = (context: SmokeContext, signal: AbortSignal) => Promise<void>;

/** The full-sync value of `updated_since` (docs/api.md#incremental-sync). */
const FULL_SYNC = '1970-01-01T00:00:00Z';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const show = (value: unknown) => JSON.stringify(value);

function expect(holds: boolean, what: string): asserts holds {
  if (!holds) throw new CheckFailedError(what);
}

/** What an answer says, briefly: its envelope's message, or the start of its body. */
function gist(answer: Answer): string {
  try {
    const { message } = JSON.parse(answer.text) as { message?: unknown };
    if (typeof message === 'string') return show(message);
  } catch {
    // Not JSON: the start of the body says what it is.
  }
  return answer.text === '' ? 'no body' : show(answer.text.slice(0, 60));
}

/** The status asked for, or a failure naming what came instead. */
function expectStatus(answer: Answer, status: number): void {
  if (answer.status !== status)
    throw new CheckFailedError(
      `expected ${status} from ${answer.url}, got ${answer.status} (${gist(answer)})`,
    );
}

/** A header's value, which must be there. */
function header(answer: Answer, name: string): string {
  const value = answer.headers.get(name);
  if (value === null) throw new CheckFailedError(`${answer.status} from ${answer.url} has no ${name} header`);
  return value;
}

/** Whether a comma-separated header lists a token (case-insensitive). */
const lists = (value: string, token: string) =>
  value
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .includes(token.toLowerCase());

interface Pagination {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  next_page_url: string | null;
  prev_page_url: string | null;
  next_sync_url?: string;
}
interface Page {
  status: string;
  company: string;
  data: Record<string, unknown>[];
  pagination: Pagination;
}

/** A 200 of the listing: JSON, with a request id, and the envelope's four members in order, of the vendor. */
function page(answer: Answer, context: SmokeContext): Page {
  expectStatus(answer, 200);
  expect(
    (header(answer, 'content-type').split(';')[0] ?? '').trim() === 'application/json',
    `the listing's Content-Type is ${answer.headers.get('content-type')}`,
  );
  header(answer, 'x-request-id');
  const body = jsonOf(answer) as Page;
  const members = Object.keys(body ?? {});
  expect(
    show(members) === show(['status', 'company', 'data', 'pagination']),
    `the envelope has ${show(members)}, not status, company, data, pagination`,
  );
  expect(body.status === 'success', `status is ${show(body.status)}`);
  expect(body.company === context.company, `company is ${show(body.company)}, not ${show(context.company)}`);
  return body;
}

/** The ids of a page's vacancies, each checked to have exactly the 15 fields, in order. */
function idsOf(body: Page): number[] {
  return body.data.map((vacancy) => {
    expect(
      show(Object.keys(vacancy)) === show(VACANCY_FIELDS),
      `vacancy ${show(vacancy.id)} has the fields ${show(Object.keys(vacancy))}`,
    );
    return vacancy.id as number;
  });
}

/**
 * The listing: every imported vacancy, newest first, in the envelope, with its pagination. The vendor and its
 * vacancies have just been written: until the settle window has passed an index may lack some vacancies
 * (docs/design.md#the-summary), and on AWS the vendor's new usage key may not have reached the gateway yet (its
 * INVALID_API_KEY, a 500; or a 429) — so such answers are asked again, until the change wait runs out.
 */
export const listing: Check = async (context, signal) => {
  const expected = context.vacancies.map((vacancy) => vacancy.id);
  const deadline = Date.now() + context.waits.changeMs;
  let body: Page;
  for (;;) {
    const answer = await context.api.request(
      context.api.listing(),
      { headers: bearer(context.secretKey) },
      signal,
    );
    const notYet = answer.status === 500 || answer.status === 429;
    if (!notYet || Date.now() >= deadline) {
      body = page(answer, context);
      const ids = idsOf(body);
      if (show(ids) === show(expected)) break;
      if (Date.now() >= deadline)
        throw new CheckFailedError(`the listing has ${show(ids)}, not ${show(expected)} (newest first)`);
    }
    await wait(context.waits.pollMs, undefined, { signal });
  }
  const { pagination } = body;
  expect(
    pagination.total === expected.length &&
      pagination.per_page === DEFAULT_SETTINGS.defaultPerPage &&
      pagination.current_page === 1 &&
      pagination.last_page === 1 &&
      pagination.next_page_url === null &&
      pagination.prev_page_url === null,
    `pagination is ${show(pagination)}`,
  );
};

/** A 200 states the vendor's tier in `RateLimit-Policy` (docs/api.md#rate-limits). */
export const rateLimitPolicy: Check = async (context, signal) => {
  const answer = await context.api.request(
    context.api.listing({ per_page: 1 }),
    { headers: bearer(context.secretKey) },
    signal,
  );
  expectStatus(answer, 200);
  const policy = header(answer, 'ratelimit-policy');
  expect(
    readRateLimitPolicy(policy)?.name === context.rateTier,
    `RateLimit-Policy is ${show(policy)}, not "${context.rateTier}";q=<n>;w=1`,
  );
};

/** `type` keeps the vacancies of that type only. */
export const filter: Check = async (context, signal) => {
  const type = context.vacancies.at(-1)?.type ?? 1;
  const body = page(
    await context.api.request(context.api.listing({ type }), { headers: bearer(context.secretKey) }, signal),
    context,
  );
  const ids = idsOf(body);
  const expected = context.vacancies.filter((vacancy) => vacancy.type === type).map((vacancy) => vacancy.id);
  expect(show(ids) === show(expected), `type=${type} gave ${show(ids)}, not ${show(expected)}`);
  expect(body.pagination.total === expected.length, `type=${type} says total ${body.pagination.total}`);
};

/** Following `next_page_url` from page 1, two at a time, visits every vacancy exactly once, in order. */
export const walk: Check = async (context, signal) => {
  const seen: number[] = [];
  let url: string | null = context.api.listing({ per_page: 2 });
  let pages = 0;
  while (url !== null) {
    pages += 1;
    expect(pages <= context.vacancies.length + 1, `the walk did not end after ${pages - 1} pages`);
    const body = page(
      await context.api.request(url, { headers: bearer(context.secretKey) }, signal),
      context,
    );
    seen.push(...idsOf(body));
    url = body.pagination.next_page_url;
  }
  const expected = context.vacancies.map((vacancy) => vacancy.id);
  expect(show(seen) === show(expected), `the walk saw ${show(seen)}, not ${show(expected)}`);
};

/** The same request with the ETag of its answer in `If-None-Match` gets a 304 without a body. */
export const notModified: Check = async (context, signal) => {
  const url = context.api.listing();
  const first = await context.api.request(url, { headers: bearer(context.secretKey) }, signal);
  expectStatus(first, 200);
  const etag = header(first, 'etag');
  const second = await context.api.request(
    url,
    { headers: { ...bearer(context.secretKey), 'if-none-match': etag } },
    signal,
  );
  expectStatus(second, 304);
  expect(second.text === '', `the 304 has a body (${second.text.length} characters)`);
};

/**
 * Pay and place (docs/api.md#pay-and-place): `workplace=hybrid` keeps the hybrid vacancies only, `facets=workplace`
 * counts them, and `include=pay,workplace` adds each one's currency, period (null: negotiable) and workplace after its
 * 15 fields, in that order.
 */
export const payAndPlace: Check = async (context, signal) => {
  const hybrid = context.vacancies.filter((vacancy) => vacancy.workplace === 'hybrid');
  const answer = await context.api.request(
    context.api.listing({ workplace: 'hybrid', facets: 'workplace', include: 'pay,workplace' }),
    { headers: bearer(context.secretKey) },
    signal,
  );
  expectStatus(answer, 200);
  const body = jsonOf(answer) as Page & { facets?: { workplace?: { code: string; count: number }[] } };
  const ids = body.data.map((vacancy) => vacancy.id);
  const expected = hybrid.map((vacancy) => vacancy.id);
  expect(show(ids) === show(expected), `workplace=hybrid gave ${show(ids)}, not ${show(expected)}`);
  for (const [index, vacancy] of body.data.entries()) {
    const fields = [...VACANCY_FIELDS, 'salary_currency', 'salary_period', 'workplace'];
    expect(
      show(Object.keys(vacancy)) === show(fields),
      `vacancy ${show(vacancy.id)} has the fields ${show(Object.keys(vacancy))}`,
    );
    const { salary_currency: currency, salary_period: period, workplace } = vacancy;
    const wanted = hybrid[index]?.salaryCurrency;
    expect(
      currency === wanted && period === null && workplace === 'hybrid',
      `vacancy ${show(vacancy.id)} states ${show({ currency, period, workplace })}, not ${show({ currency: wanted, period: null, workplace: 'hybrid' })}`,
    );
  }
  const hybridCount = body.facets?.workplace?.find((value) => value.code === 'hybrid')?.count;
  expect(hybridCount === hybrid.length, `the workplace facet is ${show(body.facets)}`);
};

/**
 * Many places (docs/api.md#many-places): `city=ganja` keeps the one vacancy whose other cities include Gəncə (its
 * `city`, the primary, is Bakı), `include=locations` adds every city of it after its 15 fields, the primary first, and
 * `facets=city` counts each vacancy under each of its cities.
 */
export const manyPlaces: Check = async (context, signal) => {
  const inGanja = context.vacancies.filter((vacancy) => vacancy.additionalCities?.includes('ganja'));
  const answer = await context.api.request(
    context.api.listing({ city: 'ganja', facets: 'city', include: 'locations', lang: 'en' }),
    { headers: bearer(context.secretKey) },
    signal,
  );
  expectStatus(answer, 200);
  const body = jsonOf(answer) as Page & { facets?: { city?: { code: string; count: number }[] } };
  const ids = body.data.map((vacancy) => vacancy.id);
  expect(show(ids) === show(inGanja.map((vacancy) => vacancy.id)), `city=ganja gave ${show(ids)}`);
  for (const [index, vacancy] of body.data.entries()) {
    const fields = Object.keys(vacancy);
    expect(
      show(fields) === show([...VACANCY_FIELDS, 'locations']),
      `vacancy ${show(vacancy.id)} has the fields ${show(fields)}`,
    );
    const codes = (vacancy.locations as { city: string }[]).map((location) => location.city);
    const wanted = ['baku', ...(inGanja[index]?.additionalCities ?? [])];
    expect(
      vacancy.city === 'Baku' && show(codes) === show(wanted),
      `vacancy ${show(vacancy.id)} is in ${show(vacancy.city)}, its locations ${show(codes)}, not Baku and ${show(wanted)}`,
    );
  }
  // Over every filter but its own: each vacancy, under each of its cities.
  const expected = new Map<string, number>();
  for (const city of context.vacancies.flatMap((vacancy) => ['baku', ...(vacancy.additionalCities ?? [])]))
    expected.set(city, (expected.get(city) ?? 0) + 1);
  const counts = new Map((body.facets?.city ?? []).map((value) => [value.code, value.count]));
  expect(
    show([...counts].sort()) === show([...expected].sort()),
    `the city facet is ${show(body.facets?.city)}, not ${show(Object.fromEntries(expected))}`,
  );
};

/** One vacancy: `{status, company, data}` with its 15 fields. */
export const oneVacancy: Check = async (context, signal) => {
  const id = context.vacancies[0]?.id as number;
  const answer = await context.api.request(
    context.api.vacancy(id),
    { headers: bearer(context.secretKey) },
    signal,
  );
  expectStatus(answer, 200);
  const body = jsonOf(answer) as { status: unknown; company: unknown; data: Record<string, unknown> };
  expect(
    show(Object.keys(body ?? {})) === show(['status', 'company', 'data']),
    `the body has ${show(Object.keys(body ?? {}))}`,
  );
  expect(body.company === context.company && body.data?.id === id, `got ${show(body).slice(0, 120)}`);
  expect(
    show(Object.keys(body.data)) === show(VACANCY_FIELDS),
    `the vacancy has the fields ${show(Object.keys(body.data))}`,
  );
  expect(lists(header(answer, 'vary'), 'Accept'), `Vary is ${answer.headers.get('vary')}`);
};

/** The vacancy as a schema.org JobPosting with `Accept: application/ld+json`. */
export const jsonLd: Check = async (context, signal) => {
  const id = context.vacancies[0]?.id as number;
  const answer = await context.api.request(
    context.api.vacancy(id),
    { headers: { ...bearer(context.secretKey), accept: 'application/ld+json' } },
    signal,
  );
  expectStatus(answer, 200);
  const type = header(answer, 'content-type');
  expect(type.startsWith('application/ld+json'), `Content-Type is ${type}`);
  const body = jsonOf(answer) as { '@type'?: unknown; identifier?: { value?: unknown } };
  expect(
    body['@type'] === 'JobPosting' && body.identifier?.value === String(id),
    `got ${show(body).slice(0, 120)}`,
  );
};

/** Every page of a sync walk from `url`: the changes, and the last page's `next_sync_url`. */
async function syncWalk(
  context: SmokeContext,
  url: string,
  signal: AbortSignal,
): Promise<{ changes: Record<string, unknown>[]; nextSyncUrl: string }> {
  const changes: Record<string, unknown>[] = [];
  let next: string | null = url;
  let nextSyncUrl = '';
  while (next !== null) {
    const body = page(
      await context.api.request(next, { headers: bearer(context.secretKey) }, signal),
      context,
    );
    changes.push(...body.data);
    next = body.pagination.next_page_url;
    nextSyncUrl = body.pagination.next_sync_url ?? '';
    expect(nextSyncUrl !== '', `a page of the sync has no next_sync_url: ${show(body.pagination)}`);
  }
  return { changes, nextSyncUrl };
}

/**
 * Walks a sync from `url` again and again, `pollMs` apart, until `found` holds of its changes or the change wait runs
 * out: a sync sees a change once the settle window has passed (docs/api.md#incremental-sync). Resolves with the walk
 * that held.
 */
async function syncUntil(
  context: SmokeContext,
  url: string,
  found: (changes: readonly Record<string, unknown>[]) => boolean,
  what: string,
  signal: AbortSignal,
): Promise<{ changes: Record<string, unknown>[]; nextSyncUrl: string }> {
  const deadline = Date.now() + context.waits.changeMs;
  for (;;) {
    const walked = await syncWalk(context, url, signal);
    if (found(walked.changes)) return walked;
    if (Date.now() >= deadline)
      throw new CheckFailedError(`${what} within ${context.waits.changeMs / 1000} s`);
    await wait(context.waits.pollMs, undefined, { signal });
  }
}

/**
 * A full sync has every vacancy, active; then one is closed, and the sync from the full sync's `next_sync_url`
 * reports it closed.
 */
export const syncSeesAChange: Check = async (context, signal) => {
  const expected = context.vacancies.map((vacancy) => vacancy.id).sort();
  const activeIds = (changes: readonly Record<string, unknown>[]) =>
    changes
      .filter((change) => change.status === 'active')
      .map((change) => change.id as number)
      .sort();
  const full = await syncUntil(
    context,
    context.api.listing({ updated_since: FULL_SYNC, per_page: PER_PAGE_LIMITS.max }),
    (changes) => show(activeIds(changes)) === show(expected),
    `the full sync did not list every vacancy (${show(expected)}) active`,
    signal,
  );
  const id = context.vacancies.at(-1)?.id as number;
  context.change = await context.closeVacancy(id);
  await syncUntil(
    context,
    full.nextSyncUrl,
    (changes) => changes.some((change) => change.id === id && change.status === 'closed'),
    `the sync from next_sync_url did not report vacancy ${id} closed`,
    signal,
  );
};

/** An error answer in the service's envelope, with its status's message, and its request id in `X-Request-Id` too. */
function envelope(answer: Answer, status: ErrorStatus): { errors?: Record<string, unknown> } {
  expectStatus(answer, status);
  const requestId = header(answer, 'x-request-id');
  const body = jsonOf(answer) as { status?: unknown; message?: unknown; errors?: Record<string, unknown> };
  const members = Object.keys(body ?? {});
  const expected =
    status === 422 ? ['status', 'message', 'errors', 'request_id'] : ['status', 'message', 'request_id'];
  expect(
    show(members) === show(expected),
    `the ${status}'s body has ${show(members)}, not ${show(expected)}`,
  );
  expect(
    body.status === 'error' && body.message === ERROR_MESSAGES[status],
    `the ${status} says ${gist(answer)}`,
  );
  expect(
    (body as { request_id?: unknown }).request_id === requestId,
    `the ${status}'s request_id is not its X-Request-Id (${requestId})`,
  );
  return body;
}

/** No key: the gateway's 401, `WWW-Authenticate: Bearer`. */
export const unauthenticated = async (context: GatewayContext, signal: AbortSignal): Promise<void> => {
  const answer = await context.api.request(context.api.listing(), {}, signal);
  envelope(answer, 401);
  expect(/^bearer\b/i.test(header(answer, 'www-authenticate')), 'the 401 does not ask for a Bearer key');
};

/** A path the API does not have: the gateway's 404, before any key is looked at. */
export const notFound = async (context: GatewayContext, signal: AbortSignal): Promise<void> => {
  const answer = await context.api.request(context.api.path('/vendor/smoke-check-no-such-path'), {}, signal);
  envelope(answer, 404);
};

/** Another method on the listing: the gateway's 405, with `Allow`, before any key is looked at. */
export const methodNotAllowed = async (context: GatewayContext, signal: AbortSignal): Promise<void> => {
  const answer = await context.api.request(context.api.listing(), { method: 'POST' }, signal);
  envelope(answer, 405);
  expect(lists(header(answer, 'allow'), 'GET'), `Allow is ${answer.headers.get('allow')}`);
};

/** A `per_page` out of range: 422 naming it. */
export const invalidParameter: Check = async (context, signal) => {
  const answer = await context.api.request(
    context.api.listing({ per_page: PER_PAGE_LIMITS.max + 1 }),
    { headers: bearer(context.secretKey) },
    signal,
  );
  const { errors } = envelope(answer, 422);
  expect(errors?.per_page !== undefined, `the 422's errors are ${show(errors)}, without per_page`);
};

/** A browser's preflight: 204 from the gateway, with the CORS headers, no key needed. */
export const preflight = async (context: GatewayContext, signal: AbortSignal): Promise<void> => {
  const answer = await context.api.request(
    context.api.listing(),
    {
      method: 'OPTIONS',
      headers: {
        origin: context.origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    },
    signal,
  );
  expectStatus(answer, 204);
  const allowOrigin = header(answer, 'access-control-allow-origin');
  expect(allowOrigin === context.origin, `Access-Control-Allow-Origin is ${show(allowOrigin)}`);
  const methods = header(answer, 'access-control-allow-methods');
  expect(lists(methods, 'GET'), `Access-Control-Allow-Methods is ${show(methods)}`);
  const headers = header(answer, 'access-control-allow-headers');
  expect(lists(headers, 'Authorization'), `Access-Control-Allow-Headers is ${show(headers)}`);
  const maxAge = header(answer, 'access-control-max-age');
  expect(maxAge === String(PREFLIGHT.maxAgeSeconds), `Access-Control-Max-Age is ${show(maxAge)}`);
};

/** The publishable key from its origin: 200, the origin echoed, `Vary: Origin`, private caching. */
export const publishableRead: Check = async (context, signal) => {
  const answer = await context.api.request(
    context.api.listing(),
    { headers: { ...bearer(context.publishableKey), origin: context.origin } },
    signal,
  );
  const body = page(answer, context);
  expect(body.data.length === context.vacancies.length, `the page has ${body.data.length} vacancies`);
  const allowOrigin = header(answer, 'access-control-allow-origin');
  expect(allowOrigin === context.origin, `Access-Control-Allow-Origin is ${show(allowOrigin)}`);
  expect(lists(header(answer, 'vary'), 'Origin'), `Vary is ${answer.headers.get('vary')}`);
  const cacheControl = header(answer, 'cache-control');
  expect(lists(cacheControl, 'private'), `Cache-Control is ${show(cacheControl)}`);
};

/**
 * The MCP server (docs/api.md#agents-mcp): a `tools/call` of `search_vacancies` with the secret key — JSON-RPC's
 * result, its structured content the listing's first page of two, its total every vacancy, a cursor to the next page.
 */
export const mcpSearch: Check = async (context, signal) => {
  const answer = await context.api.request(
    context.api.mcp(),
    {
      method: 'POST',
      headers: {
        ...bearer(context.secretKey),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_vacancies', arguments: { per_page: 2 } },
      }),
    },
    signal,
  );
  expectStatus(answer, 200);
  const { result } = (jsonOf(answer) ?? {}) as {
    result?: {
      isError?: boolean;
      structuredContent?: {
        company?: unknown;
        data?: { id?: unknown }[];
        pagination?: { total?: unknown; cursor?: unknown };
      };
    };
  };
  const content = result?.structuredContent;
  expect(
    result?.isError !== true && content !== undefined,
    `the tool answered ${show(answer.text.slice(0, 160))}`,
  );
  const ids = (content.data ?? []).map((vacancy) => vacancy.id);
  const expected = context.vacancies.slice(0, 2).map((vacancy) => vacancy.id);
  expect(content.company === context.company, `the tool's company is ${show(content.company)}`);
  expect(show(ids) === show(expected), `the tool found ${show(ids)}, not ${show(expected)}`);
  expect(
    content.pagination?.total === context.vacancies.length && typeof content.pagination.cursor === 'string',
    `the tool's pagination is ${show(content.pagination)}`,
  );
};

/**
 * The webhook endpoint was sent the sync check's change, and answered 2xx: the endpoint's position (what it has been
 * delivered) reached the change, and its last attempt's outcome is a 2xx status — as `webhook list` shows it.
 */
export const webhookDelivered: Check = async (context, signal) => {
  const progressOf = context.webhookProgress;
  const change = context.change;
  expect(progressOf !== undefined, 'no webhook endpoint was added');
  expect(change !== undefined, 'no change was made (the sync check failed before it)');
  const deadline = Date.now() + context.waits.changeMs;
  for (;;) {
    const progress = await progressOf();
    if (progress.deliveredThrough >= change.updatedAt && /^2\d\d$/.test(progress.lastOutcome ?? '')) return;
    if (Date.now() >= deadline)
      throw new CheckFailedError(
        `the change to vacancy ${change.id} was not delivered within ${context.waits.changeMs / 1000} s (last attempt: ${progress.lastOutcome ?? 'none'})`,
      );
    await wait(context.waits.pollMs, undefined, { signal });
  }
};

/** The ids a feed of the `indeed` format lists: each job's `<referencenumber>`, as the feed writes it (CDATA). */
const referenceNumbers = (xml: string) =>
  [...xml.matchAll(/<referencenumber><!\[CDATA\[([^\]]+)\]\]><\/referencenumber>/g)].map((match) => match[1]);

/**
 * The vendor's `indeed` feed, fetched as a job board fetches it (no key, gzip taken), until it is built with every
 * vacancy (`<referencenumber>`, newest first) or the change wait runs out: its URL answers 404 until its first build.
 */
export const feedServed: Check = async (context, signal) => {
  const url = context.feedUrl;
  expect(url !== undefined, 'no feed was added');
  // A job per city: the id for the primary, `<id>-<code>` for each other (docs/api.md#feeds).
  const expected = context.vacancies.flatMap((vacancy) => [
    String(vacancy.id),
    ...(vacancy.additionalCities ?? []).map((city) => `${vacancy.id}-${city}`),
  ]);
  const deadline = Date.now() + context.waits.changeMs;
  for (;;) {
    const answer = await context.api.request(url, { headers: { 'accept-encoding': 'gzip' } }, signal);
    if (answer.status === 200) {
      const type = header(answer, 'content-type') ?? '';
      expect(
        type.startsWith('application/xml'),
        `the feed's Content-Type is ${show(type)}, not application/xml`,
      );
      if (show(referenceNumbers(answer.text)) === show(expected)) return;
    } else
      expect(answer.status === 404, `the feed answered ${answer.status}, not 200 (or 404 before its build)`);
    if (Date.now() >= deadline)
      throw new CheckFailedError(
        `the feed did not list the vacancies ${show(expected)} within ${context.waits.changeMs / 1000} s (last: ${answer.status})`,
      );
    await wait(context.waits.pollMs, undefined, { signal });
  }
};

/** A check and the name its line shows. */
export interface NamedCheck<C = SmokeContext> {
  readonly name: string;
  readonly run: (context: C, signal: AbortSignal) => Promise<void>;
  /** It may wait for something to come through, up to the change wait (its time bound is that and more). */
  readonly mayWait?: boolean;
}

/** What the checks of the gateway alone need: no vendor, no key. */
export type GatewayContext = Pick<SmokeContext, 'api' | 'origin'>;

/**
 * The checks that need no vendor, first: a target that does not answer fails here, before anything is written for
 * it.
 */
export const GATEWAY_CHECKS: readonly NamedCheck<GatewayContext>[] = [
  { name: '401 without a key', run: unauthenticated },
  { name: '404 on another path', run: notFound },
  { name: '405 on POST', run: methodNotAllowed },
  { name: 'preflight (OPTIONS)', run: preflight },
];

/** The checks with the temporary vendor's keys and vacancies, in the order they run. */
export const VENDOR_CHECKS: readonly NamedCheck[] = [
  { name: 'listing', run: listing, mayWait: true },
  { name: 'RateLimit-Policy', run: rateLimitPolicy },
  { name: 'filter (type)', run: filter },
  { name: 'walk by next_page_url', run: walk },
  { name: '304 with If-None-Match', run: notModified },
  { name: 'one vacancy', run: oneVacancy },
  { name: 'JSON-LD', run: jsonLd },
  { name: 'pay and place', run: payAndPlace },
  { name: 'many places', run: manyPlaces },
  { name: '422 on a bad per_page', run: invalidParameter },
  { name: 'publishable key from its origin', run: publishableRead },
  { name: 'MCP tools/call search_vacancies', run: mcpSearch },
  // Last: it closes a vacancy, which the checks above count.
  { name: 'sync sees a change', run: syncSeesAChange, mayWait: true },
];

/** The check of a target that serves feeds, before the vendor's checks (the last of them closes a vacancy). */
export const FEED_CHECK: NamedCheck = { name: 'feed holds the vacancies', run: feedServed, mayWait: true };

/** The check that needs `--webhook-url`, after the change it waits for. */
export const WEBHOOK_CHECK: NamedCheck = {
  name: 'webhook delivered',
  run: webhookDelivered,
  mayWait: true,
};
