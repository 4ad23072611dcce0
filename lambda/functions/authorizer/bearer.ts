/**
 * `Authorization: Bearer <key>`: the scheme word in any case, surrounding blanks ignored (docs/api.md#authentication). Written once as a pattern that means the same to Java's regex engine and to
 * JavaScript's: API Gateway's authorizer `validationRegex` (Java) refuses malformed headers with it before any
 * Lambda runs, and the authorizer and the local server parse with it. So it names its characters: `\s` would be
 * ASCII whitespace in Java but every Unicode space in JavaScript — a `Bearer\u00A0<key>` the deployed API refuses
 * and the local one would accept. Blanks are space and tab; the token is anything else.
 */
export const BEARER_HEADER_PATTERN = '^[ \\t]*[Bb][Ee][Aa][Rr][Ee][Rr][ \\t]+([^ \\t]+)[ \\t]*$';

const BEARER_HEADER = new RegExp(BEARER_HEADER_PATTERN);

/** The token of a Bearer `Authorization` header, or undefined when the header is absent or another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER_HEADER.exec(header)?.[1];
}
