import { describe, expect, it } from '@jest/globals';
import { isTimeZone, zoneClock } from '../../../../../lambda/platform/time/zone-clock';
import { canonicalTimeZone } from '../../../../../lib/time-zone';

const baku = zoneClock('Asia/Baku');
const berlin = zoneClock('Europe/Berlin');

describe('zoneClock', () => {
  it('formats instants on the zone wall clock (Baku is UTC+4), many under one switch', () => {
    const instant = new Date('2026-01-10T05:30:00Z');
    expect(baku.format(instant)).toBe('2026-01-10 09:30:00');
    expect(zoneClock('UTC').format(instant)).toBe('2026-01-10 05:30:00');
    expect(berlin.formatAll([instant, new Date('2026-07-01T10:00:00Z')])).toEqual([
      '2026-01-10 06:30:00',
      '2026-07-01 12:00:00',
    ]);
  });

  it('takes "today" in the zone, which differs from UTC around midnight', () => {
    const instant = new Date('2026-03-31T21:00:00Z');
    expect(baku.today(instant)).toBe('2026-04-01');
    expect(zoneClock('UTC').today(instant)).toBe('2026-03-31');
  });

  it('renders midnight as 00, not 24', () => {
    expect(baku.format(new Date('2026-05-01T20:00:00Z'))).toBe('2026-05-02 00:00:00');
  });

  it('turns wall-clock time into the instant, summer and winter offsets both honoured', () => {
    expect(baku.fromLocal('2026-01-10 09:30:00').toISOString()).toBe('2026-01-10T05:30:00.000Z');
    expect(berlin.fromLocal('2026-07-01 12:00:00').toISOString()).toBe('2026-07-01T10:00:00.000Z');
    expect(berlin.fromLocal('2026-01-01 12:00:00').toISOString()).toBe('2026-01-01T11:00:00.000Z');
    const london = zoneClock('Europe/London');
    expect(london.format(london.fromLocal('2026-10-25 01:59:59'))).toBe('2026-10-25 01:59:59');
  });

  it('resolves the wall times a daylight-saving change skips or repeats', () => {
    // Berlin springs forward at 02:00 on 2026-03-29: 02:30 does not exist and moves forward by the jump.
    expect(berlin.fromLocal('2026-03-29 02:30:00').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // It falls back at 03:00 on 2026-10-25: 02:30 happens twice; the first (summer time) is taken.
    expect(berlin.fromLocal('2026-10-25 02:30:00').toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('reads four-digit years literally, even small ones', () => {
    expect(zoneClock('UTC').fromLocal('0099-01-01 00:00:00').toISOString()).toBe('0099-01-01T00:00:00.000Z');
  });

  it('leaves the process time zone as it found it', () => {
    const before = process.env.TZ;
    zoneClock('Asia/Tokyo').formatAll([new Date(), new Date()]);
    zoneClock('Asia/Tokyo').fromLocal('2026-01-01 00:00:00');
    expect(process.env.TZ).toBe(before);
  });

  it('refuses a zone the runtime does not know', () => {
    expect(() => zoneClock('Mars/Olympus')).toThrow('"Mars/Olympus" is not a known time zone.');
  });
});

describe('time zone names', () => {
  it('are known to the runtime exactly as ICU knows them, aliases and UTC included', () => {
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
    for (const zone of ['Mars/Olympus', 'Asia/Bak', '', 'UTC+4', '+04:00', '../etc/passwd', 'Etc/Unknown']) {
      expect([zone, isTimeZone(zone)]).toEqual([zone, false]);
    }
  });

  it('are checked and made canonical with Intl by the tools, offsets refused', () => {
    expect(canonicalTimeZone('asia/baku')).toBe('Asia/Baku');
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    for (const zone of ['+04:00', 'UTC+4', 'Mars/Olympus', ''])
      expect(canonicalTimeZone(zone)).toBeUndefined();
  });
});
