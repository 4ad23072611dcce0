/**
 * One attempt of a delivery (docs/api.md#webhooks): a POST of the event to the endpoint's URL, connected to an
 * address checked to be public (`public-address.ts`; the URL's host stays the request's `Host` and TLS name), given
 * 10 seconds in all. A 2xx is success; anything else — a redirect too, which is never followed — is a failure, with
 * the `Retry-After` it asked for.
 */
import type { LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isLoopbackHttp, type UrlRules, webhookUrlProblem } from '../../domain/webhook-registry/endpoint';
import { NonPublicAddressError } from '../../domain/webhook-registry/errors';
import {
  type CheckedAddress,
  checkedAddress,
  type Resolver,
} from '../../domain/webhook-registry/public-address';

/** How long an attempt may take, from connecting to the answer's status. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** What one attempt came to. */
export type AttemptResult =
  | { readonly ok: true; readonly status: number }
  | {
      readonly ok: false;
      /** The HTTP status, when the endpoint answered. */
      readonly status?: number;
      /** What went wrong, in a few words (`timeout`, `refused: …`, `connection failed`, or the status). */
      readonly outcome: string;
      /** How long the endpoint asked to be left alone (`Retry-After`), in ms. */
      readonly retryAfterMs?: number;
    };

/** How attempts are made: the URL rules, the resolver (a test's, or the system's) and the time limit. */
export interface DeliveryOptions extends UrlRules {
  readonly resolve?: Resolver;
  readonly timeoutMs?: number;
}

/** `Retry-After` in ms: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Sends one attempt: never throws; what happened is in the result. */
export async function attemptDelivery(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  options: DeliveryOptions,
): Promise<AttemptResult> {
  const problem = webhookUrlProblem(url, options);
  if (problem) return { ok: false, outcome: `refused: ${problem}` };
  const target = new URL(url);
  let address: CheckedAddress;
  try {
    address = isLoopbackHttp(target)
      ? { address: '127.0.0.1', family: 4 }
      : await checkedAddress(target.hostname, options.resolve);
  } catch (error) {
    return {
      ok: false,
      outcome: error instanceof NonPublicAddressError ? `refused: ${error.message}` : 'host not found',
    };
  }
  return post(target, address, headers, body, options.timeoutMs ?? ATTEMPT_TIMEOUT_MS);
}

function post(
  target: URL,
  address: CheckedAddress,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeoutMs: number,
): Promise<AttemptResult> {
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const signal = AbortSignal.timeout(timeoutMs);
    const request = send(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'vendor-vacancy-api-webhooks',
        },
        signal,
        // The connection goes to the address that was checked, whatever a second lookup would say; the URL's host
        // stays the Host header and the TLS server name.
        lookup: (_hostname, lookupOptions, callback) => {
          if ((lookupOptions as { all?: boolean }).all)
            (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, [address]);
          else callback(null, address.address, address.family);
        },
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // Only the status matters: the rest of the answer is not read.
        response.destroy();
        if (status >= 200 && status < 300) resolve({ ok: true, status });
        else {
          const wait = retryAfterMs(response.headers['retry-after'], Date.now());
          resolve({
            ok: false,
            status,
            outcome: String(status),
            ...(wait !== undefined && { retryAfterMs: wait }),
          });
        }
      },
    );
    request.on('error', () =>
      resolve({ ok: false, outcome: signal.aborted ? 'timeout' : 'connection failed' }),
    );
    request.end(body);
  });
}
