/**
 * A vacancy's cities as its item stores them (docs/design.md#many-places). The item's `city` attribute holds the
 * primary city's code alone when the vacancy has no additional cities — as every item stored before they existed —
 * and otherwise the primary's code, then each additional city's in the record's order, joined by `CITY_SEPARATOR`.
 * The search index already projects `city`, and an index's projection cannot change in place, so the additional cities
 * ride on it, as the workplace rides on `t` (`active-index.ts`): no index rebuilt, no item rewritten.
 *
 * Exact: a city code never contains the separator (the import takes only the dictionary's codes, which are lower-case
 * letters — a test holds every one to it), so the joined codes split back into the very list, and the primary is
 * first; a code alone, as every item stored before, reads as a primary with no additional city.
 */

/** What joins the codes of a vacancy's cities in its item's `city`: no city code contains it. */
export const CITY_SEPARATOR = ',';

/** The `city` attribute of a vacancy's item: the primary's code alone, or it and the additional cities' joined. */
export function storedCities(city: string, additional: readonly string[] = []): string {
  return additional.length === 0 ? city : [city, ...additional].join(CITY_SEPARATOR);
}

/** A vacancy's cities from its item's `city` attribute (`storedCities`): the primary first, then the additional ones. */
export function citiesOfStored(stored: string): string[] {
  return stored.split(CITY_SEPARATOR);
}
