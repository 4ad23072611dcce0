/**
 * RFC 3339 date-times as `updated_since` takes them (docs/api.md#incremental-sync): `2026-11-23T10:15:30Z`,
 * `2026-11-23T14:15:30.250+04:00` — a time zone always (`Z` or a numeric offset), at most millisecond precision, and
 * a real date and time (no leap second: nothing the service stamps falls on one).
 */

const DATE_TIME =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,3}))?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))$/;

/**
 * The instants whose UTC form has a four-digit year, 0000 to 9999: every link the service hands out carries
 * `updated_since` in UTC, so one outside these would be written as an extended year (`+010000-…`) that RFC 3339 —
 * and so the service — refuses (docs/api.md#incremental-sync).
 */
const FIRST_INSTANT = new Date('0000-01-01T00:00:00.000Z').getTime();
const LAST_INSTANT = new Date('9999-12-31T23:59:59.999Z').getTime();

/**
 * The instant (ms since 1970; negative before it) an RFC 3339 date-time names, or undefined if it is not one — or if
 * it is one whose UTC form falls outside the years 0000–9999 (`9999-12-31T23:59:59-23:59`, say).
 */
export function parseRfc3339(text: string): number | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match.slice(1, 7).map(Number);
  const fraction = match[7] ?? '';
  const [sign, offsetHours = '0', offsetMinutes = '0'] = match.slice(8);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return undefined;
  const instant = new Date(0);
  // setUTCFullYear, not Date.UTC, which reads years 0–99 as 1900–1999.
  instant.setUTCFullYear(year, month - 1, day);
  if (instant.getUTCDate() !== day) return undefined; // 2026-02-30 and the like
  instant.setUTCHours(hour, minute, second, Number(fraction.padEnd(3, '0')));
  const offset = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  const utc = instant.getTime() - (sign === '-' ? -offset : sign === '+' ? offset : 0);
  return utc < FIRST_INSTANT || utc > LAST_INSTANT ? undefined : utc;
}

/** An instant as the service writes it: UTC, with milliseconds, `Z` (`2026-11-23T10:15:30.123Z`). */
export const formatRfc3339 = (ms: number): string => new Date(ms).toISOString();
