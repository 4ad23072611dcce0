/**
 * `Authorization: Bearer <key>`: the scheme word in any case, surrounding whitespace ignored (CONTRACT §1).
 * Written once as a Java-compatible pattern: API Gateway's authorizer `validationRegex` uses it to reject
 * malformed headers before any Lambda runs, and the authorizer and local server parse with it.
 */
export const BEARER_HEADER_PATTERN = '^\\s*[Bb][Ee][Aa][Rr][Ee][Rr]\\s+(\\S+)\\s*$';

const BEARER_HEADER = new RegExp(BEARER_HEADER_PATTERN);

/** The token of a Bearer `Authorization` header, or undefined when the header is absent or another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER_HEADER.exec(header)?.[1];
}
