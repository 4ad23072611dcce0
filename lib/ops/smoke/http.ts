/**
 * The smoke check's HTTP client (docs/operating.md#smoke-check): Node's global `fetch` against the deployed API, each
 * request bounded in time, and every way of not getting an answer said in one line that names the URL.
 */
import { setTimeout as wait } from 'node:timers/promises';
import { FUNCTION_LIMITS } from '../../../lambda/domain/service/limits';
import { LISTING_PATH, MCP_PATH } from '../../../lambda/domain/service/routes';
import { RETRY_AFTER_SECONDS } from '../../../lambda/platform/http/errors';
import { ApiUnreachableError, CheckFailedError } from '../errors';

/**
 * The longest a request may take: the listing function's timeout (its answer, a 503 included, comes before it) and
 * two seconds for the network and the gateway.
 */
export const REQUEST_TIMEOUT_MS = FUNCTION_LIMITS.listing.timeoutSeconds * 1_000 + 2_000;

/** How often a 429 is retried: the smoke check proves the API, not the vendor's rate limit (docs/api.md#rate-limits). */
const THROTTLED_RETRIES = 3;

/** An answer, read whole. */
export interface Answer {
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** The body of an answer as JSON; a failure naming the request when it is not. */
export function jsonOf(answer: Answer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    throw new CheckFailedError(
      `${answer.status} from ${answer.url} is not JSON (${JSON.stringify(answer.text.slice(0, 60))})`,
    );
  }
}

/** The one line for a request that got no answer. */
function unreachable(url: string, error: unknown, timedOut: boolean): ApiUnreachableError {
  if (timedOut) return new ApiUnreachableError(`no answer from ${url} within ${REQUEST_TIMEOUT_MS / 1000} s`);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code === 'ECONNREFUSED')
    return new ApiUnreachableError(`nothing answers at ${url} (connection refused)`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new ApiUnreachableError(`the host of ${url} cannot be resolved (DNS: ${code})`);
  const why = code ?? (typeof cause?.message === 'string' ? cause.message : (error as Error)?.message);
  return new ApiUnreachableError(`cannot reach ${url} (${why ?? 'fetch failed'})`);
}

/** The API under test: its base URL (the stage's, or a custom domain), and its routes. */
export class Api {
  /** The base URL, without a trailing slash (`https://…/prod`, `http://127.0.0.1:3000`). */
  readonly base: string;

  constructor(apiUrl: string) {
    // The ListingUrl output is accepted too: its base is what comes before the route.
    const base = apiUrl.replace(/\/+$/, '');
    this.base = base.endsWith(LISTING_PATH) ? base.slice(0, -LISTING_PATH.length) : base;
  }

  /** The listing's URL with these query parameters. */
  listing(query: Readonly<Record<string, string | number>> = {}): string {
    const url = new URL(`${this.base}${LISTING_PATH}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
    return url.toString();
  }

  /** One vacancy's URL. */
  vacancy(id: number): string {
    return `${this.base}${LISTING_PATH}/${id}`;
  }

  /** The MCP server's URL (docs/api.md#agents-mcp). */
  mcp(): string {
    return `${this.base}${MCP_PATH}`;
  }

  /** A path of the API's host below its base. */
  path(path: string): string {
    return `${this.base}${path}`;
  }

  /**
   * Sends a request and reads its answer, within `REQUEST_TIMEOUT_MS` and the check's own `signal`. A 429 is waited
   * out (its `Retry-After`, at most a few times); no answer at all is an `ApiUnreachableError`.
   */
  async request(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string },
    signal: AbortSignal,
  ): Promise<Answer> {
    for (let attempt = 0; ; attempt += 1) {
      const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
      let response: Response;
      try {
        response = await fetch(url, {
          ...init,
          redirect: 'manual',
          signal: AbortSignal.any([signal, timeout]),
        });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw unreachable(url, error, timeout.aborted);
      }
      const text = await response.text();
      if (response.status !== 429 || attempt === THROTTLED_RETRIES)
        return { url, status: response.status, headers: response.headers, text };
      const retryAfter = Number(response.headers.get('retry-after'));
      await wait(
        (Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 5) : RETRY_AFTER_SECONDS) *
          1_000,
        undefined,
        { signal },
      );
    }
  }
}
