/**
 * Feeds as the local server serves them (docs/design.md#feeds, docs/operating.md#feeds): `GET` and `HEAD` of
 * `/feeds/<token>/<file>`, read from a feed's files (`FeedFiles`) and from nothing else — no key, no DynamoDB, no rate
 * tier. A file is kept gzipped: it is sent so to a client whose `Accept-Encoding` takes gzip by its q-values, and
 * unzipped on the way out to any other. `ETag` and `Last-Modified` (the build's time) come from the stored file;
 * `If-None-Match`, else `If-Modified-Since`, answer 304 (RFC 9110 §13.2.2) — each read strictly
 * (`lambda/platform/http/conditional.ts`): a value that is not one is ignored. Whatever is not a stored file — an unknown or removed token,
 * another name, a path that is not exactly `/feeds/<token>/<file>` (no decoding, no `..`) — is one 404, the same
 * bytes whatever the reason, so that an answer tells nothing of which tokens exist.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import {
  FEED_FILE,
  FEED_NOT_FOUND_TEXT,
  FEED_TOKEN,
  FEEDS_PATH,
} from '../../lambda/domain/feed-registry/feed';
import type { FeedFiles, StoredFeedFile } from '../../lambda/domain/feed-registry/feed-files';
import { httpDate, ifNoneMatchMatches } from '../../lambda/platform/http/conditional';

/** A fixed answer: its status, headers and body, the same bytes every time. */
interface FixedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

const fixed = (status: number, text: string, headers: Record<string, string> = {}): FixedAnswer => {
  const body = Buffer.from(text);
  return {
    status,
    body,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': String(body.length),
      'Cache-Control': 'no-cache',
      ...headers,
    },
  };
};

/** Every answer that is not a feed's file: the same bytes, whichever the reason. */
export const FEED_NOT_FOUND = fixed(404, FEED_NOT_FOUND_TEXT);
const METHOD_NOT_ALLOWED = fixed(405, 'Method Not Allowed\n', { Allow: 'GET, HEAD' });
const FAILED = fixed(500, 'Internal Server Error\n');

function sendFixed(response: ServerResponse, answer: FixedAnswer, head: boolean): void {
  response.writeHead(answer.status, answer.headers);
  response.end(head ? undefined : answer.body);
}

/** The feed's token and file name of a request path, when the path is exactly `/feeds/<token>/<file>`. */
export function feedFileOf(path: string): { token: string; file: string } | undefined {
  if (!path.startsWith(FEEDS_PATH)) return undefined;
  const [token = '', file = '', ...more] = path.slice(FEEDS_PATH.length).split('/');
  return more.length === 0 && FEED_TOKEN.test(token) && FEED_FILE.test(file) ? { token, file } : undefined;
}

/** A q-value (RFC 9110 §12.4.2): 0 to 1, with at most three decimals. */
export const QVALUE = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Whether `Accept-Encoding` takes gzip (`gzip`, `x-gzip`, or `*` when gzip is not named) with a weight above 0, read
 * as RFC 9110 §12.5.3 writes it: each member a coding and at most a weight, `q=` and a q-value (`QVALUE`). A member
 * whose weight is not one — `gzip;q=1e5`, `gzip; q = 1`, `gzip;q=0.5000`, another parameter — refuses its coding. No
 * header, or one in doubt: the plain bytes, which every client reads.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const member of header.split(',')) {
    const [coding = '', ...parameters] = member.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.length === 1 ? /^q=(.*)$/.exec(parameters[0] ?? '')?.[1] : undefined;
    const weight = parameters.length === 0 ? 1 : q !== undefined && QVALUE.test(q) ? Number(q) : 0;
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, weight);
    else if (coding === '*') any = weight;
  }
  return (gzip ?? any ?? 0) > 0;
}

/**
 * Whether the request's conditions find the client's copy current: `If-None-Match` when it is there, else
 * `If-Modified-Since` when it is an HTTP-date (RFC 9110 §13.1.3: one that is not is ignored).
 */
function notModified(request: IncomingMessage, file: StoredFeedFile): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) return ifNoneMatchMatches(ifNoneMatch, file.etag);
  const since = request.headers['if-modified-since'];
  const date = since === undefined ? undefined : httpDate(since);
  // HTTP dates are whole seconds: the build's time as `Last-Modified` says it.
  return date !== undefined && Math.floor(file.builtAt / 1000) * 1000 <= date;
}

/** What a file's answers say of it, 200 and 304 alike. */
const validators = (file: StoredFeedFile) => ({
  ETag: file.etag,
  'Last-Modified': new Date(file.builtAt).toUTCString(),
  'Cache-Control': 'no-cache',
  Vary: 'Accept-Encoding',
});

/** Whether a failure is only the client going away mid-answer. */
const clientGone = (error: unknown) =>
  (error as NodeJS.ErrnoException)?.code === 'ERR_STREAM_PREMATURE_CLOSE';

async function answer(files: FeedFiles, request: IncomingMessage, response: ServerResponse, path: string) {
  const head = request.method === 'HEAD';
  if (request.method !== 'GET' && !head) return sendFixed(response, METHOD_NOT_ALLOWED, false);
  const wanted = feedFileOf(path);
  const file = wanted && (await files.get(wanted.token, wanted.file));
  if (!file) return sendFixed(response, FEED_NOT_FOUND, head);
  if (notModified(request, file)) {
    file.gzipped.destroy();
    response.writeHead(304, validators(file));
    response.end();
    return;
  }
  const gzip = acceptsGzip(request.headers['accept-encoding']);
  response.writeHead(200, {
    'Content-Type': 'application/xml; charset=utf-8',
    ...validators(file),
    // The plain length is not stored: the unzipped bytes go chunked.
    ...(gzip && { 'Content-Encoding': 'gzip', 'Content-Length': String(file.size) }),
  });
  if (head) {
    file.gzipped.destroy();
    response.end();
    return;
  }
  await (gzip ? pipeline(file.gzipped, response) : pipeline(file.gzipped, createGunzip(), response));
}

/**
 * A request handler for `/feeds/…`, to sit among the local server's pages: it takes every request under that path
 * (returns true) and answers it from `files`; leaves any other alone (false). A failure to read a file is a 500 —
 * or, once the answer has begun, a connection closed — and `onError` is told.
 */
export function feedPages(files: FeedFiles, onError: (error: unknown) => void = () => undefined) {
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const path = (request.url ?? '').split('?', 1)[0] ?? '';
    if (!path.startsWith(FEEDS_PATH)) return false;
    answer(files, request, response, path).catch((error: unknown) => {
      if (clientGone(error)) return;
      onError(error);
      if (response.headersSent) response.destroy();
      else sendFixed(response, FAILED, request.method === 'HEAD');
    });
    return true;
  };
}
