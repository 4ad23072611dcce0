import { isTimeZone } from '../lambda/platform/time/zone-clock';

/**
 * The canonical name of an IANA time zone (`asia/baku` → `Asia/Baku`), or undefined for anything else —
 * offsets such as `+04:00` included, though `Intl` accepts them. For tools (synth, the ops CLI), where `Intl`'s
 * start-up time does not matter; the result is also a zone the functions accept at cold start.
 */
export function canonicalTimeZone(zone: string): string | undefined {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  return isTimeZone(resolved) ? resolved : undefined;
}
