/**
 * The compact entries of the active index and the condition that reads them (docs/design.md#data-model).
 * An entry holds the table key (`id`), the vendor id once (`v`), a 12-byte order key (`o`), and the filter
 * values as small numbers: about 45 bytes where readable names and ISO strings took about 80. An active item also
 * has its expiry shard (`e`), which with the deadline day keys the expiry index.
 */

import { writeBigEndian } from './big-endian';
import { ACTIVE_INDEX, EXPIRY_SHARDS, ITEM, type ItemAttribute } from './tables';
import { defaultWorkplace, type Vacancy, type VacancyType, WORKPLACES, type Workplace } from './vacancy';

/** Bytes of the order key: 5 for the creation second (to the year 36812), 7 for the id (up to 2^53 − 1). */
export const ORDER_KEY_BYTES = 12;
const SECOND_BYTES = 5;

/**
 * The index's sort key: the creation second since 1970, then the id, fixed width and big-endian, so that
 * DynamoDB's byte-wise order of binary keys is the listing's order read backwards — newest first, and the
 * larger id first within a second. Creation times before 1970 are refused at import, so the second is never
 * negative.
 */
export function orderKey(createdAt: Date, id: number): Uint8Array {
  const key = new Uint8Array(ORDER_KEY_BYTES);
  writeBigEndian(key, 0, SECOND_BYTES, Math.floor(createdAt.getTime() / 1000));
  writeBigEndian(key, SECOND_BYTES, ORDER_KEY_BYTES - SECOND_BYTES, id);
  return key;
}

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date: four bytes in DynamoDB where the string takes ten. */
export function dayNumber(date: string): number {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const utc = new Date(0);
  // setUTCFullYear, not Date.UTC, which reads years 0–99 as 1900–1999.
  utc.setUTCFullYear(year, month - 1, day);
  return Math.floor(utc.getTime() / DAY_MS);
}

/**
 * The `t` of an entry: the vacancy's type — plus ten times one more than the workplace's place in `WORKPLACES` when
 * the workplace is not the type's default (docs/design.md#the-active-index). An index's projection cannot change in
 * place, so the workplace rides on the type both indexes already project: an item stored before workplaces existed
 * (its `t` the type alone) reads as its type's default, with no rewrite and no index rebuilt, and an entry is no
 * larger (DynamoDB stores 21 in as many bytes as 1).
 */
export function indexedType(type: VacancyType, workplace: Workplace | undefined): number {
  const place = workplace ?? defaultWorkplace(type);
  return place === defaultWorkplace(type) ? type : type + 10 * (WORKPLACES.indexOf(place) + 1);
}

/** The type of an entry's `t` (`indexedType`). */
export const typeOfIndexed = (indexed: number): VacancyType => (indexed % 10) as VacancyType;

/** The workplace of an entry's `t` (`indexedType`). */
export function workplaceOfIndexed(indexed: number): Workplace {
  const place = Math.floor(indexed / 10);
  return place === 0 ? defaultWorkplace(indexed % 10) : (WORKPLACES[place - 1] ?? 'onsite');
}

/** Every `t` an entry of a type may have, whatever its workplace: what the `type` filter keeps. */
export const indexedTypes = (type: VacancyType): number[] => [
  ...new Set(WORKPLACES.map((workplace) => indexedType(type, workplace))),
];

/** The expiry index's shard of an id. */
export const expiryShard = (id: number) => id % EXPIRY_SHARDS;

/**
 * The attributes an active vacancy has for the active and the expiry indexes (none for any other status: a write
 * that changes the status drops them, and the item leaves both indexes).
 */
export function activeIndexAttributes(vacancy: Vacancy): Partial<Record<ItemAttribute, unknown>> {
  if (vacancy.status !== 'active') return {};
  return {
    [ITEM.order]: orderKey(vacancy.created_at, vacancy.id),
    [ITEM.type]: indexedType(vacancy.type, vacancy.workplace),
    [ITEM.experienceMin]: vacancy.experience_min,
    ...(vacancy.experience_max !== null && { [ITEM.experienceMax]: vacancy.experience_max }),
    [ITEM.deadline]: dayNumber(vacancy.deadline),
    [ITEM.expiryShard]: expiryShard(vacancy.id),
  };
}

/** The attributes of `activeIndexAttributes`, to remove from an item that stops being active. */
export const ACTIVE_ATTRIBUTES = [
  ITEM.order,
  ITEM.type,
  ITEM.experienceMin,
  ITEM.experienceMax,
  ITEM.deadline,
  ITEM.expiryShard,
] as const;

/** Filters of a listing request; absent means "no filter". */
export interface VacancyFilters {
  readonly type?: VacancyType;
  readonly experienceMin?: number;
  readonly experienceMax?: number;
}

/** A bound on the order key: the entries before (`<`, `<=`) or after (`>`, `>=`) a position. */
export interface OrderBound {
  readonly comparison: '<' | '<=' | '>' | '>=';
  readonly position: Uint8Array;
}

/**
 * KeyCondition and FilterExpression of a Query on the active index: a vendor's entries whose deadline is
 * `today` or later (`today` is `YYYY-MM-DD` in the service time zone), with the filters — and, given a bound, only
 * those on its side of a position.
 */
export function activeIndexCondition(
  vendorId: string,
  filters: VacancyFilters,
  today: string,
  bound?: OrderBound,
) {
  const names: Record<string, string> = { '#vendor': ACTIVE_INDEX.partitionKey, '#deadline': ITEM.deadline };
  const values: Record<string, string | number | Uint8Array> = {
    ':vendor': vendorId,
    ':today': dayNumber(today),
  };
  let keyCondition = '#vendor = :vendor';
  if (bound) {
    names['#order'] = ACTIVE_INDEX.sortKey;
    values[':position'] = bound.position;
    keyCondition += ` AND #order ${bound.comparison} :position`;
  }
  const conditions = ['#deadline >= :today'];
  if (filters.type !== undefined) {
    names['#type'] = ITEM.type;
    const typeValues = indexedTypes(filters.type).map((indexed, i) => {
      values[`:type${i}`] = indexed;
      return `:type${i}`;
    });
    conditions.push(`#type IN (${typeValues.join(', ')})`);
  }
  if (filters.experienceMin !== undefined) {
    names['#expMin'] = ITEM.experienceMin;
    values[':expMin'] = filters.experienceMin;
    conditions.push('#expMin >= :expMin');
  }
  if (filters.experienceMax !== undefined) {
    // An open-ended vacancy (no maximum stored) never satisfies an upper bound.
    names['#expMax'] = ITEM.experienceMax;
    values[':expMax'] = filters.experienceMax;
    conditions.push('attribute_exists(#expMax) AND #expMax <= :expMax');
  }
  return {
    IndexName: ACTIVE_INDEX.name,
    KeyConditionExpression: keyCondition,
    FilterExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
