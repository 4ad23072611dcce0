/**
 * Wall-clock dates and times in one IANA time zone, daylight saving included, behind one small interface.
 *
 * How, and why it is hidden here: `Intl.DateTimeFormat` would do this, but its first construction starts ICU's
 * locale and calendar data — about 14 ms of a Lambda cold start (`npm run bench`) for a function that needs no
 * locale at all. V8's own local-time functions need only the zone's rules, so a clock computes with the process
 * time zone (`TZ`) set to its zone — synchronously, restored before anything else can run (the Powertools
 * logger, for one, reads `TZ` to stamp its lines). Each switch costs about 12 µs, so a clock formats a whole
 * page of instants under one switch. Callers never touch `TZ`.
 */

/** The dates and times of one zone. */
export interface ZoneClock {
  /** The IANA zone name. */
  readonly zone: string;
  /** `YYYY-MM-DD`: the date the zone's wall clock shows at `now`. */
  today(now: Date): string;
  /** `YYYY-MM-DD HH:MM:SS` of each instant on the zone's wall clock (one switch for all of them). */
  formatAll(instants: readonly Date[]): string[];
  /** `YYYY-MM-DD HH:MM:SS` of one instant on the zone's wall clock. */
  format(instant: Date): string;
  /** ISO 8601 of one instant on the zone's wall clock, with the zone's offset then: `2026-09-20T09:15:00+04:00`. */
  formatWithOffset(instant: Date): string;
  /**
   * The instant at which the zone's wall clock shows `YYYY-MM-DD HH:MM:SS` (a string already checked for
   * that shape). A wall time skipped by a daylight-saving jump moves forward by the jump, as V8 resolves it;
   * a repeated one is its first occurrence.
   */
  fromLocal(dateTime: string): Date;
  /** The instant the zone's next day begins after `now` (its first wall-clock moment, should midnight be skipped). */
  nextDayStart(now: Date): Date;
}

/** Runs `compute` with the process time zone set to `zone`, then restores it. */
function inZone<T>(zone: string, compute: () => T): T {
  const previous = process.env.TZ;
  if (previous === zone) return compute();
  process.env.TZ = zone;
  try {
    return compute();
  } finally {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  }
}

const pad = (value: number) => String(value).padStart(2, '0');
const wallDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const wallTime = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

// An IANA zone: `Area/Location` (`Etc/GMT-4`, `America/Argentina/Salta`), or UTC and GMT themselves. POSIX
// strings such as `UTC+4`, which `TZ` would also accept, are not time zone names.
const IANA_ZONE = /^(?:[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+|UTC|GMT)$/;

/**
 * Whether the runtime knows an IANA time zone name, without starting `Intl` (for a function's cold start;
 * tools check with `Intl` itself). V8 silently falls back to UTC for an unknown zone and then names it
 * "GMT+00:00"; every real zone at offset 0 has a name of its own (UTC, Greenwich Mean Time, …).
 */
export function isTimeZone(zone: string): boolean {
  return IANA_ZONE.test(zone) && inZone(zone, () => !new Date(0).toString().endsWith('(GMT+00:00)'));
}

/** The clock of a zone; throws on a name the runtime does not know. */
export function zoneClock(zone: string): ZoneClock {
  if (!isTimeZone(zone)) throw new Error(`"${zone}" is not a known time zone.`);
  const formatAll = (instants: readonly Date[]) =>
    inZone(zone, () => instants.map((instant) => `${wallDate(instant)} ${wallTime(instant)}`));
  const clock: ZoneClock = {
    zone,
    today: (now) => inZone(zone, () => wallDate(now)),
    formatAll,
    format: (instant) => formatAll([instant])[0] as string,
    formatWithOffset(instant) {
      const wall = clock.format(instant).replace(' ', 'T');
      // The offset is what the wall clock shows less the instant, to the minute (seconds dropped from both).
      const minutes = Math.round(
        (Date.parse(`${wall}Z`) - Math.floor(instant.getTime() / 1000) * 1000) / 60_000,
      );
      const sign = minutes < 0 ? '-' : '+';
      const magnitude = Math.abs(minutes);
      return `${wall}${sign}${pad(Math.floor(magnitude / 60))}:${pad(magnitude % 60)}`;
    },
    nextDayStart(now) {
      const tomorrow = new Date(`${clock.today(now)}T00:00:00Z`);
      tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
      return clock.fromLocal(`${tomorrow.toISOString().slice(0, 10)} 00:00:00`);
    },
    fromLocal(dateTime) {
      const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = dateTime
        .split(/[- :]/)
        .map(Number);
      return inZone(zone, () => {
        const instant = new Date(0);
        // setFullYear, not the Date constructor, which reads years 0–99 as 1900–1999.
        instant.setFullYear(year, month - 1, day);
        instant.setHours(hour, minute, second, 0);
        return instant;
      });
    },
  };
  return clock;
}
