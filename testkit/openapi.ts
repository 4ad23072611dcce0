/**
 * Every response the HTTP tests receive, held to `docs/openapi.yaml`: its status must be one the document gives
 * for the request (the operation's, or — for another path or method — the `NotFound` and `MethodNotAllowed`
 * responses, and for a request the gateway cannot take `BadRequest`), every header the response declares must be
 * there and match its schema, and the body must match the media type and schema. Ajv validates with JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1. A response the document does not describe fails the test.
 */
import { readFileSync } from 'node:fs';
import { expect } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { MCP_AGENT_RESOURCE, MCP_PATH, matchRoute, ROUTE_METHOD } from '../lambda/domain/service/routes';

const DOCUMENT_URL = new URL('../docs/openapi.yaml', import.meta.url);
const DOCUMENT_ID = 'https://vendor-vacancy-api.invalid/openapi.yaml';

type Json = Record<string, unknown>;
interface ResponseObject {
  description?: string;
  headers?: Record<string, Json>;
  content?: Record<string, { schema: Json }>;
  $ref?: string;
}

/** The document, parsed. */
export const OPENAPI: Json = parse(readFileSync(DOCUMENT_URL, 'utf8')) as Json;

const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its function is the module itself, or its `default` as ESM sees it.
((addFormats as unknown as { default?: typeof addFormats }).default ?? addFormats)(ajv);
// The whole document as one schema resource, so that its `#/components/…` references resolve.
ajv.addSchema({ ...OPENAPI, $id: DOCUMENT_ID });

/** The JSON pointer of a location in the document. */
const pointer = (...segments: string[]) =>
  `#/${segments.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

function at(ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, segment) => (node as Json | undefined)?.[segment], OPENAPI);
}

/** Follows `$ref`s within the document. */
function resolve<T>(value: T & { $ref?: string }): T {
  let node: T & { $ref?: string } = value;
  while (node?.$ref) node = at(node.$ref) as T & { $ref?: string };
  return node;
}

const validators = new Map<string, ReturnType<typeof ajv.compile>>();
/** The validator of the schema at a pointer (compiled once). */
function validatorAt(schemaPointer: string) {
  let validate = validators.get(schemaPointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}${schemaPointer}` });
    validators.set(schemaPointer, validate);
  }
  return validate;
}

/** A response as a test saw it. */
export interface ObservedResponse {
  readonly method: string;
  /** The request target: path, and query if any. */
  readonly target: string;
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
}

/** Where the document describes a response: its pointer, or undefined. */
function describedAt(method: string, target: string, status: number): string | undefined {
  // The document names a route by its template (`/vendor/vacancies/{id}`).
  const route = matchRoute(target.split('?')[0] ?? '')?.route;
  const path = route ?? '';
  const operation = (OPENAPI.paths as Json)?.[path] as Json | undefined;
  const responses = operation?.[method.toLowerCase()]
    ? ((operation[method.toLowerCase()] as Json).responses as Json)
    : undefined;
  if (responses && Object.hasOwn(responses, String(status))) {
    return pointer('paths', path, method.toLowerCase(), 'responses', String(status));
  }
  if (status === 400) return pointer('components', 'responses', 'BadRequest');
  const mcp = route === MCP_PATH || route === MCP_AGENT_RESOURCE;
  if (route && method === 'OPTIONS' && status === 204)
    return pointer(
      'components',
      'responses',
      route === MCP_AGENT_RESOURCE ? 'McpPublicPreflight' : mcp ? 'McpPreflight' : 'Preflight',
    );
  if (route && method !== ROUTE_METHOD[route] && status === 405) {
    return pointer('components', 'responses', mcp ? 'McpMethodNotAllowed' : 'MethodNotAllowed');
  }
  if (!route && status === 404) return pointer('components', 'responses', 'NotFound');
  return undefined;
}

/** Asserts that the document describes a response exactly: status, headers, media type and body. */
export function expectDocumented(observed: ObservedResponse): void {
  const where = describedAt(observed.method, observed.target, observed.status);
  const what = `${observed.method} ${observed.target} → ${observed.status}`;
  expect([what, where === undefined ? 'not described by docs/openapi.yaml' : 'described']).toEqual([
    what,
    'described',
  ]);
  let response = at(where as string) as ResponseObject;
  let schemaBase = where as string;
  if (response.$ref) {
    schemaBase = response.$ref;
    response = resolve(response);
  }
  for (const [name, declared] of Object.entries(response.headers ?? {})) {
    const header = resolve(declared as Json & { $ref?: string }) as { required?: boolean; schema?: Json };
    const value = observed.headers.get(name.toLowerCase());
    if (value === undefined) {
      expect([what, name, header.required ? 'required header missing' : 'optional']).toEqual([
        what,
        name,
        'optional',
      ]);
      continue;
    }
    const validate = ajv.compile(header.schema ?? {});
    expect([what, name, value, validate(value) ? 'valid' : validate.errors]).toEqual([
      what,
      name,
      value,
      'valid',
    ]);
  }
  const media = Object.keys(response.content ?? {});
  if (media.length === 0) {
    expect([what, observed.body]).toEqual([what, '']);
    return;
  }
  const contentType = observed.headers.get('content-type')?.split(';')[0]?.trim();
  expect([what, 'Content-Type', media.includes(contentType ?? '') ? 'documented' : contentType]).toEqual([
    what,
    'Content-Type',
    'documented',
  ]);
  const validate = validatorAt(`${schemaBase}/content/${(contentType ?? '').replaceAll('/', '~1')}/schema`);
  let body: unknown;
  try {
    body = JSON.parse(observed.body);
  } catch {
    body = observed.body;
  }
  expect([what, validate(body) ? 'valid' : validate.errors]).toEqual([what, 'valid']);
}

/**
 * `fetch`, with every response held to the document. The body is read and handed back in a new `Response`,
 * so the test can still read it.
 */
export async function documentedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const response = await fetch(request);
  const body = await response.text();
  const url = new URL(request.url);
  expectDocumented({
    method: request.method,
    target: url.pathname + url.search,
    status: response.status,
    headers: new Map([...response.headers].map(([name, value]) => [name.toLowerCase(), value])),
    body,
  });
  return new Response(response.status === 304 || response.status === 204 ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * A webhook delivery as a receiver got it, held to the document's `webhooks` entry: each header it declares there
 * and matching its schema, and the body matching the request body's schema.
 */
export function expectDocumentedDelivery(
  webhook: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  body: string,
): void {
  const operation = (OPENAPI.webhooks as Record<string, { post: Json }>)[webhook]?.post as
    | { parameters: { name: string; in: string; schema: Json }[] }
    | undefined;
  expect(operation).toBeDefined();
  for (const [index, parameter] of (operation?.parameters ?? []).entries()) {
    const value = headers[parameter.name];
    expect([parameter.name, typeof value]).toEqual([parameter.name, 'string']);
    const validate = validatorAt(pointer('webhooks', webhook, 'post', 'parameters', String(index), 'schema'));
    expect([parameter.name, value, validate(value) ? [] : validate.errors]).toEqual([
      parameter.name,
      value,
      [],
    ]);
  }
  const validate = validatorAt(
    pointer('webhooks', webhook, 'post', 'requestBody', 'content', 'application/json', 'schema'),
  );
  const parsed = JSON.parse(body) as unknown;
  expect([body, validate(parsed) ? [] : validate.errors]).toEqual([body, []]);
}
