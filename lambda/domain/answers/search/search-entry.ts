/**
 * An entry of a vendor's search index (the DynamoDB index `SEARCH_INDEX`, docs/design.md#search) as the function
 * holds it in memory: the attributes it is read with, and the title folded into its words once, when read.
 */

import { typeOfIndexed, workplaceOfIndexed } from '../../schema/active-index';
import { citiesOfStored } from '../../schema/cities';
import { searchWords } from '../../schema/search-words';
import { ITEM } from '../../schema/tables';
import type { Workplace } from '../../schema/vacancy';

/** An entry of a vendor's search index, as the function holds it. */
export interface SearchEntry {
  readonly id: number;
  /** The listing's order key (`domain/schema/active-index.ts`). */
  readonly order: Uint8Array;
  readonly type: number;
  /** Where the work is done: read off the entry's `t` with its type (`domain/schema/active-index.ts`). */
  readonly workplace: Workplace;
  readonly experienceMin: number;
  /** Undefined: open-ended. */
  readonly experienceMax: number | undefined;
  /** The deadline as a day number. */
  readonly deadline: number;
  readonly category: string;
  /** Every city of the vacancy, the primary first: read off the entry's `city` (`domain/schema/cities.ts`). */
  readonly cities: readonly string[];
  /** The title's folded words (`domain/schema/search-words.ts`). */
  readonly words: readonly string[];
}

/** The attributes an entry is read with (the search index's keys and projection). */
export const SEARCH_ENTRY_ATTRIBUTES = [
  'id',
  ITEM.order,
  ITEM.type,
  ITEM.experienceMin,
  ITEM.experienceMax,
  ITEM.deadline,
  'category',
  'city',
  'title',
] as const;

/** An entry of the search index as read (unmarshalled), held: the title folded into its words once. */
export function toSearchEntry(item: Readonly<Record<string, unknown>>): SearchEntry {
  return {
    id: item.id as number,
    order: item[ITEM.order] as Uint8Array,
    type: typeOfIndexed(item[ITEM.type] as number),
    workplace: workplaceOfIndexed(item[ITEM.type] as number),
    experienceMin: item[ITEM.experienceMin] as number,
    experienceMax: item[ITEM.experienceMax] as number | undefined,
    deadline: item[ITEM.deadline] as number,
    category: String(item.category ?? ''),
    cities: citiesOf(String(item.city ?? '')),
    words: searchWords(String(item.title ?? '')),
  };
}

/** The cities of a one-city entry, one list per code: most entries have one city, and share its list. */
const ONE_CITY = new Map<string, readonly string[]>();
/** Codes `ONE_CITY` keeps a list for, at most: the dictionary's cities, with room to spare. */
const ONE_CITY_CODES = 1_000;

/** The cities of an entry's `city`: a list shared by every entry of one city alone, a list of its own otherwise. */
function citiesOf(stored: string): readonly string[] {
  const shared = ONE_CITY.get(stored);
  if (shared) return shared;
  const cities = citiesOfStored(stored);
  if (cities.length === 1 && ONE_CITY.size < ONE_CITY_CODES) ONE_CITY.set(stored, Object.freeze(cities));
  return cities;
}
