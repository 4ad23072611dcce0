import { describe, expect, it } from '@jest/globals';
import {
  inTimeZone,
  isTimeZone,
  localDate,
  localDateTime,
  utcInstant,
  zonedDateTimeToInstant,
} from '../../lambda/shared/time';

describe('service time zone', () => {
  it('renders an instant as wall-clock time in the zone (Baku is UTC+4)', () => {
    const instant = new Date('2026-01-10T05:30:00Z');
    expect(localDateTime(instant, 'Asia/Baku')).toBe('2026-01-10 09:30:00');
    expect(localDateTime(instant, 'UTC')).toBe('2026-01-10 05:30:00');
  });

  it('takes "today" in the zone, which differs from UTC around midnight', () => {
    const instant = new Date('2026-03-31T21:00:00Z');
    expect(localDate(instant, 'Asia/Baku')).toBe('2026-04-01');
    expect(localDate(instant, 'UTC')).toBe('2026-03-31');
  });

  it('renders midnight as 00, not 24', () => {
    expect(localDateTime(new Date('2026-05-01T20:00:00Z'), 'Asia/Baku')).toBe('2026-05-02 00:00:00');
  });

  it('turns zone wall-clock time into the instant, and back', () => {
    expect(utcInstant(zonedDateTimeToInstant('2026-01-10 09:30:00', 'Asia/Baku'))).toBe(
      '2026-01-10T05:30:00Z',
    );
    // Across a daylight-saving zone: summer and winter offsets both honoured.
    expect(utcInstant(zonedDateTimeToInstant('2026-07-01 12:00:00', 'Europe/Berlin'))).toBe(
      '2026-07-01T10:00:00Z',
    );
    expect(utcInstant(zonedDateTimeToInstant('2026-01-01 12:00:00', 'Europe/Berlin'))).toBe(
      '2026-01-01T11:00:00Z',
    );
    const roundTrip = zonedDateTimeToInstant('2026-10-25 01:59:59', 'Europe/London');
    expect(localDateTime(roundTrip, 'Europe/London')).toBe('2026-10-25 01:59:59');
  });

  it('knows every zone ICU knows, aliases and UTC included, and nothing else', () => {
    for (const zone of [
      ...Intl.supportedValuesOf('timeZone'),
      'UTC',
      'Etc/UTC',
      'GMT',
      'Asia/Kolkata',
      'Europe/Kyiv',
    ]) {
      expect([zone, isTimeZone(zone)]).toEqual([zone, true]);
    }
    for (const zone of ['Mars/Olympus', 'Asia/Bak', '', 'UTC+4', '../etc/passwd', 'Etc/Unknown']) {
      expect([zone, isTimeZone(zone)]).toEqual([zone, false]);
    }
  });

  it('leaves the process time zone as it found it, even when the computation throws', () => {
    const before = process.env.TZ;
    localDateTime(new Date(), 'Asia/Tokyo');
    expect(process.env.TZ).toBe(before);
    expect(() =>
      inTimeZone('Asia/Tokyo', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(process.env.TZ).toBe(before);
    expect(inTimeZone('Asia/Tokyo', () => inTimeZone('Asia/Tokyo', () => process.env.TZ))).toBe('Asia/Tokyo');
  });

  it('reads four-digit years literally, even small ones', () => {
    expect(utcInstant(zonedDateTimeToInstant('0099-01-01 00:00:00', 'UTC'))).toBe('0099-01-01T00:00:00Z');
  });
});
