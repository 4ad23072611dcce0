/**
 * Dates and times in the service time zone (`Asia/Baku` by default), with the platform's `Intl` time zone
 * data: no library, and correct for any IANA zone, daylight saving included.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One cached formatter per zone: building an `Intl.DateTimeFormat` is the expensive part. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

const WALL_CLOCK_PARTS: ReadonlySet<string> = new Set(['year', 'month', 'day', 'hour', 'minute', 'second']);

function wallClock(instant: Date, timeZone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const { type, value } of formatterFor(timeZone).formatToParts(instant)) {
    if (WALL_CLOCK_PARTS.has(type)) parts[type] = value;
  }
  return parts as unknown as WallClock;
}

/** Whether the runtime knows an IANA time zone name. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** `YYYY-MM-DD` of an instant in a time zone. */
export function localDate(instant: Date, timeZone: string): string {
  const { year, month, day } = wallClock(instant, timeZone);
  return `${year}-${month}-${day}`;
}

/** `YYYY-MM-DD HH:MM:SS` of an instant in a time zone. */
export function localDateTime(instant: Date, timeZone: string): string {
  const { year, month, day, hour, minute, second } = wallClock(instant, timeZone);
  return `${year}-${month}-${day} ${hour}:${minute}:${second}`;
}

/** Milliseconds the zone's wall clock is ahead of UTC at an instant. */
function offsetAt(instant: number, timeZone: string): number {
  const { year, month, day, hour, minute, second } = wallClock(new Date(instant), timeZone);
  const asUtc = Date.UTC(+year, +month - 1, +day, +hour, +minute, +second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant at which a zone's wall clock shows the given date and time (`YYYY-MM-DD HH:MM:SS`, already
 * validated). Where a daylight-saving change skips or repeats that wall time, the earlier candidate wins.
 */
export function zonedDateTimeToInstant(dateTime: string, timeZone: string): Date {
  const [date = '', time = ''] = dateTime.split(' ');
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute, second] = time.split(':').map(Number);
  const asUtc = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0, second ?? 0);
  // Two rounds settle on the right offset, even next to a transition.
  const firstGuess = asUtc - offsetAt(asUtc, timeZone);
  const secondGuess = asUtc - offsetAt(firstGuess, timeZone);
  return new Date(Math.min(firstGuess, secondGuess));
}

/** `2026-03-01T05:30:00Z`: an instant in UTC, to the second. */
export function utcInstant(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}
