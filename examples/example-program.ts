// examples/example-program.ts — what the example programs share: their command line, and what they say when the
// API cannot be reached or refuses them
//
// One line that names the URL and the likely fix, instead of a stack trace: a newcomer's first mistakes are a
// server that is not running (or another port), a wrong key, and a base URL that is not the API's. Each example
// program catches `ApiProblem` at its top level, prints `error: <message>` and exits 1. Copy it with the example.
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';

/**
 * Where the API is when `--base-url` is not given: the environment's `VACANCY_API_URL` (npm start's address on the
 * port it was given, or a deployment's `ApiUrl`), else npm start's default address.
 */
export const DEFAULT_BASE_URL = process.env.VACANCY_API_URL || 'http://127.0.0.1:3000';

/** The options every example takes: the API's base URL, a key, the language, and --help. */
export const API_OPTIONS = {
  'api-key': { type: 'string' },
  'base-url': { type: 'string', default: DEFAULT_BASE_URL },
  lang: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

/**
 * The command line read by `options`: --help prints `usage` (exit 0); an unknown option, a missing one of `required`
 * or a `--lang` other than az and en prints what is wrong and `usage` (exit 2).
 */
export function readCommandLine<T extends ParseArgsOptionsConfig>(
  options: T,
  usage: string,
  required: readonly (keyof T & string)[],
): ReturnType<typeof parseArgs<{ options: T }>>['values'] {
  let values: ReturnType<typeof parseArgs<{ options: T }>>['values'];
  try {
    ({ values } = parseArgs({ options }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  const given = values as Record<string, unknown>;
  if (given.help) {
    console.log(usage);
    process.exit(0);
  }
  const missing = required.filter((name) => given[name] === undefined);
  if (missing.length > 0 || (given.lang !== undefined && given.lang !== 'az' && given.lang !== 'en')) {
    console.error(
      `${missing.length > 0 ? `missing ${missing.map((name) => `--${name}`).join(', ')}` : '--lang is az or en'}\n\n${usage}`,
    );
    process.exit(2);
  }
  return values;
}

/** A failure of a request to the API, said in one line with the URL and what to check. */
export class ApiProblem extends Error {
  override readonly name = 'ApiProblem';
}

/** The API's own message from an error body (`{"status": "error", "message": …}`), when there is one. */
async function apiMessage(response: Response): Promise<string | undefined> {
  try {
    return errorMessage(await response.json());
  } catch {
    return undefined;
  }
}

/**
 * The API's error envelope in words: its `message`, and on a 422 each parameter `errors` names with its reasons
 * (`The given data was invalid. per_page: The per_page must be between 1 and 100.`).
 */
export function errorMessage(body: unknown): string | undefined {
  const { message, errors } = (body ?? {}) as { message?: unknown; errors?: unknown };
  if (typeof message !== 'string') return undefined;
  if (typeof errors !== 'object' || errors === null) return message;
  const named = Object.entries(errors as Record<string, unknown>).map(
    ([name, reasons]) => `${name}: ${Array.isArray(reasons) ? reasons.join(' ') : String(reasons)}`,
  );
  return [message, ...named].join(' ');
}

/** Where a request went, without its query (a cursor says nothing to a person). */
const place = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
};

/** A request that could not be made at all (nothing listening, no such host, TLS): one line naming where. */
export function unreachable(url: string, error: unknown): ApiProblem {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (error as Error).message;
  return new ApiProblem(
    `cannot reach the API at ${new URL(url).origin} (${why}): is it running there? Give its base URL with --base-url (npm start prints it; on AWS the stack's ApiUrl output).`,
  );
}

/**
 * A non-success answer as one line: 401 (the key), 404 (the base URL), or the status and the API's message (read
 * from the body unless the caller read it already and gives it).
 */
export async function refused(url: string, response: Response, said?: string): Promise<ApiProblem> {
  const message = said ?? (await apiMessage(response));
  switch (response.status) {
    case 401:
      return new ApiProblem(
        `the API at ${new URL(url).origin} refused the key (401): check --api-key — a secret key, as "vacancy-admin key issue" printed it.`,
      );
    case 404:
      return new ApiProblem(
        `nothing at ${place(url)} (404): check --base-url — the API's base URL, such as http://127.0.0.1:3000, or the stack's ApiUrl with its stage.`,
      );
    default:
      return new ApiProblem(
        `the API answered ${response.status} at ${place(url)}${message ? `: ${message}` : '.'}`,
      );
  }
}

/** `fetch`, with a request that cannot be made turned into an `ApiProblem`. */
export async function fetchApi(get: typeof fetch, url: string, init?: RequestInit): Promise<Response> {
  try {
    return await get(url, init);
  } catch (error) {
    throw unreachable(url, error);
  }
}

/**
 * Runs an example program's main part: an `ApiProblem` (or any other failure) is printed as one line, `error: …`,
 * and the process exits 1 — no stack trace.
 */
export async function runProgram(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
