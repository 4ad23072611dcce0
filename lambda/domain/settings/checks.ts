/**
 * Checks of setting values, shared by the functions (at cold start, on the environment they receive) and the
 * tools (at synth, on `cdk.json` context and `-c name=value`). A value may arrive as JSON (`cdk.json`) or as a
 * string (`-c`, an environment variable), so every check accepts both; it returns the value, or `undefined` when
 * the value is not allowed.
 */

/** A check of one setting's value. */
export type Check<T> = (value: unknown) => T | undefined;

/** A string, as it is. */
export const text: Check<string> = (value) => (typeof value === 'string' ? value : undefined);

/** `true` or `false`, as JSON or as a string. */
export const flag: Check<boolean> = (value) =>
  value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;

/** A whole number from `min` to `max`, as a number or as a string of digits. */
export const whole =
  (min: number, max: number): Check<number> =>
  (value) => {
    const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    return typeof number === 'number' && Number.isInteger(number) && number >= min && number <= max
      ? number
      : undefined;
  };

/**
 * A list of 1 to `maxLength` whole numbers from `min` to `max`: an array, its JSON text, or a comma-separated
 * string (`5,300,1800`).
 */
export const wholeList =
  (min: number, max: number, maxLength: number): Check<readonly number[]> =>
  (value) => {
    let list: unknown = value;
    if (typeof value === 'string') list = value.startsWith('[') ? jsonArray(value) : value.split(',');
    if (!Array.isArray(list) || list.length === 0 || list.length > maxLength) return undefined;
    const numbers = list.map(whole(min, max));
    return numbers.every((number) => number !== undefined) ? (numbers as number[]) : undefined;
  };

function jsonArray(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One of some strings. */
export const oneOf =
  <T extends string>(values: readonly T[]): Check<T> =>
  (value) =>
    (values as readonly unknown[]).includes(value) ? (value as T) : undefined;

/** A string that matches a pattern entirely. */
export const matching =
  (pattern: RegExp): Check<string> =>
  (value) =>
    typeof value === 'string' && pattern.test(value) ? value : undefined;

/** A JSON object given as itself or as its JSON text. */
export function jsonObject(value: unknown): Record<string, unknown> | undefined {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}

/**
 * An absolute `http(s)` URL with a host and nothing after its path (no query, no fragment, no blank): the base
 * of URLs the service builds, or an endpoint it calls.
 */
export const httpUrl: Check<string> = (value) => {
  if (typeof value !== 'string' || !/^https?:\/\/[^\s?#]+$/.test(value) || !URL.canParse(value)) return;
  return new URL(value).hostname === '' ? undefined : value;
};
