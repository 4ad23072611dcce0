/**
 * Dates and times in the service time zone (`Asia/Baku` by default), for any IANA zone, daylight saving included.
 *
 * Why not `Intl.DateTimeFormat`: constructing the first one initialises ICU's locale and calendar data, about
 * 14 ms of a Lambda cold start (`npm run bench`), where the function needs no locale at all. V8's own local-time
 * functions need only the zone's rules (well under 1 ms), so the computations below run with the process time
 * zone (`TZ`) switched to the service zone — synchronously, and switched back before anything else can run
 * (the Powertools logger, for one, reads `TZ` to stamp its lines).
 */

/**
 * Runs `compute` with the process's local time zone set to `timeZone`, then restores it. `compute` must be
 * synchronous. Nested calls for the same zone cost nothing, so a caller formatting many dates wraps them once.
 */
export function inTimeZone<T>(timeZone: string, compute: () => T): T {
  const previous = process.env.TZ;
  if (previous === timeZone) return compute();
  process.env.TZ = timeZone;
  try {
    return compute();
  } finally {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  }
}

const pad = (value: number) => String(value).padStart(2, '0');

// An IANA zone: `Area/Location` (`Etc/GMT-4`, `America/Argentina/Salta`), or UTC and GMT themselves. POSIX
// strings such as `UTC+4`, which `TZ` would also accept, are not time zone names.
const IANA_ZONE = /^(?:[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+|UTC|GMT)$/;

/**
 * Whether the runtime knows an IANA time zone name. V8 silently falls back to UTC for an unknown zone and then
 * names it "GMT+00:00"; every real zone at offset 0 has a name of its own (UTC, Greenwich Mean Time, …).
 */
export function isTimeZone(timeZone: string): boolean {
  if (!IANA_ZONE.test(timeZone)) return false;
  return inTimeZone(timeZone, () => !new Date(0).toString().endsWith('(GMT+00:00)'));
}

/** `YYYY-MM-DD` of an instant in a time zone. */
export function localDate(instant: Date, timeZone: string): string {
  return inTimeZone(
    timeZone,
    () => `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`,
  );
}

/** `YYYY-MM-DD HH:MM:SS` of an instant in a time zone. */
export function localDateTime(instant: Date, timeZone: string): string {
  return inTimeZone(
    timeZone,
    () =>
      `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())} ` +
      `${pad(instant.getHours())}:${pad(instant.getMinutes())}:${pad(instant.getSeconds())}`,
  );
}

/**
 * The instant at which a zone's wall clock shows the given date and time (`YYYY-MM-DD HH:MM:SS`, already
 * validated). A wall time skipped by a daylight-saving jump moves forward by the jump, as V8 resolves it.
 */
export function zonedDateTimeToInstant(dateTime: string, timeZone: string): Date {
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = dateTime
    .split(/[- :]/)
    .map(Number);
  return inTimeZone(timeZone, () => {
    const instant = new Date(0);
    // setFullYear, not the Date constructor, which reads years 0–99 as 1900–1999.
    instant.setFullYear(year, month - 1, day);
    instant.setHours(hour, minute, second, 0);
    return instant;
  });
}

/** `2026-03-01T05:30:00Z`: an instant in UTC, to the second. */
export function utcInstant(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}
