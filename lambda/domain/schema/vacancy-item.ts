/**
 * A vacancy as an item of the vacancies table, and back (docs/design.md#data-model). The item keeps the record's
 * field names (so the listing reads exactly the vacancy object's fields), with the vendor as `v`, `created_at` as a
 * UTC instant, null fields left out, the additional cities in `city` after the primary (`cities.ts`), when it last
 * changed (`updated_at`, and the change index's key), and — while active — the attributes of the active and expiry
 * indexes. A deleted vacancy is a tombstone: its id, vendor, status and change time only.
 */
import { activeIndexAttributes } from './active-index';
import { changeKey } from './change-index';
import { citiesOfStored, storedCities } from './cities';
import { ITEM, type ItemAttribute } from './tables';
import {
  NULLABLE_FIELDS,
  type PAY_AND_PLACE_FIELDS,
  RECORD_FIELDS,
  type StoredStatus,
  type Vacancy,
  type VacancyField,
} from './vacancy';

type NullableField = (typeof NULLABLE_FIELDS)[number];
/** A field of pay and place: absent from an item when the record left it out (docs/api.md#pay-and-place). */
export type PayAndPlaceField = (typeof PAY_AND_PLACE_FIELDS)[number];

/** What every item has: its id, vendor, status and when it last changed. */
interface ItemHead {
  readonly id: number;
  readonly [ITEM.vendor]: string;
  readonly status: StoredStatus;
  /** Milliseconds since 1970. */
  readonly [ITEM.updatedAt]: number;
  /** The change index's key: `updated_at` and the id. */
  readonly [ITEM.change]: Uint8Array;
  /** The token of the write that put it (`ITEM.write`); absent on items put before writes had one. */
  readonly [ITEM.write]?: string;
}

/**
 * A vacancy as stored: null fields absent, `created_at` in UTC, `city` the primary's code then the additional cities'
 * (`storedCities`; the code alone when there are none).
 */
export type StoredVacancy = ItemHead & {
  readonly [F in Exclude<
    keyof Vacancy,
    NullableField | PayAndPlaceField | 'vendor_id' | 'created_at' | 'id' | 'status' | 'additional_cities'
  >]: Vacancy[F];
} & { readonly [F in NullableField]?: number } & Pick<Vacancy, PayAndPlaceField> & {
    readonly status: Exclude<StoredStatus, 'deleted'>;
    /** UTC instant to the second: `2026-03-01T05:30:00Z`. */
    readonly created_at: string;
  };

/** A vacancy item of the table: the stored vacancy, with the active and expiry indexes' attributes while active. */
export type VacancyItem = StoredVacancy & Partial<Record<ItemAttribute, unknown>>;

/** What is left of a deleted vacancy: enough to tell a sync, and to keep the id the vendor's. */
export type Tombstone = ItemHead & { readonly status: 'deleted' };

/** Any item of the vacancies table. */
export type StoredItem = VacancyItem | Tombstone;

/**
 * What the listing reads of an item, its cities read back (`withCities`): the vacancy object's fields — `city` the
 * primary's code — pay and place (absent: the defaults), the additional cities (absent: none), and the vendor (to
 * check it owns the item).
 */
export type ListedVacancy = Pick<StoredVacancy, VacancyField | PayAndPlaceField | typeof ITEM.vendor> &
  Pick<Vacancy, 'additional_cities'>;

/**
 * An item as read, with its cities read back (`cities.ts`): `city` the primary's code, and `additional_cities` the
 * others in the record's order — absent when it has none, as on every item stored before they existed. What every
 * read of items for an answer, a feed or a status change goes through.
 */
export function withCities<T extends { readonly city?: string | undefined }>(
  item: T,
): T & Pick<Vacancy, 'additional_cities'> {
  if (item.city === undefined) return item;
  const [city = '', ...additional] = citiesOfStored(item.city);
  if (additional.length === 0) return item;
  return { ...item, city, additional_cities: additional };
}

/** `2026-03-01T05:30:00Z`: an instant in UTC, to the second. */
export function utcInstant(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

/** Whether an item is a tombstone. */
export const isTombstone = (item: StoredItem): item is Tombstone => item.status === 'deleted';

/**
 * The item of a vacancy that changed at `updatedAt` (ms): a put replaces the whole item, so a status change moves it
 * in or out of the active and expiry indexes, and its new change time moves its change index entry.
 */
export function toVacancyItem(vacancy: Vacancy, updatedAt: number): VacancyItem {
  const item: Record<string, unknown> = {};
  for (const field of RECORD_FIELDS) {
    const value = vacancy[field];
    if (value !== null && value !== undefined) item[field] = value;
  }
  delete item.vendor_id;
  delete item.additional_cities;
  return {
    ...(item as Omit<VacancyItem, ItemAttribute | 'created_at'>),
    city: storedCities(vacancy.city, vacancy.additional_cities),
    [ITEM.vendor]: vacancy.vendor_id,
    created_at: utcInstant(vacancy.created_at),
    [ITEM.updatedAt]: updatedAt,
    [ITEM.change]: changeKey(updatedAt, vacancy.id),
    ...activeIndexAttributes(vacancy),
  } as VacancyItem;
}

/**
 * A vacancy as the service records it on `today` (`YYYY-MM-DD` in the service zone): `expired` rather than `active`
 * once its deadline has passed — what the expiry job would record within the hour anyway.
 */
export function expiredIfPast(vacancy: Vacancy, today: string): Vacancy {
  return vacancy.status === 'active' && vacancy.deadline < today
    ? { ...vacancy, status: 'expired' }
    : vacancy;
}

/** The tombstone of a vacancy deleted at `updatedAt` (ms). */
export function toTombstone(id: number, vendorId: string, updatedAt: number): Tombstone {
  return {
    id,
    [ITEM.vendor]: vendorId,
    status: 'deleted',
    [ITEM.updatedAt]: updatedAt,
    [ITEM.change]: changeKey(updatedAt, id),
  };
}

/** The vacancy a stored item was made from: the inverse of `toVacancyItem` (for status changes). */
export function fromVacancyItem(item: VacancyItem): Vacancy {
  const vacancy: Record<string, unknown> = {};
  const read = withCities(item);
  for (const field of RECORD_FIELDS) {
    const value = read[field as keyof typeof read];
    if (value !== undefined) vacancy[field] = value;
  }
  for (const field of NULLABLE_FIELDS) vacancy[field] ??= null;
  return {
    ...(vacancy as unknown as Vacancy),
    vendor_id: item[ITEM.vendor],
    created_at: new Date(item.created_at),
  };
}

/** An item without what only records when (and by which write) it changed: what a client can see of it, and the index attributes. */
function content(item: StoredItem): Record<string, unknown> {
  const {
    [ITEM.updatedAt]: _updatedAt,
    [ITEM.change]: _change,
    [ITEM.write]: _write,
    ...rest
  } = item as unknown as Record<string, unknown>;
  return rest;
}

/**
 * Whether writing `next` over `stored` would change nothing a client can see: the same fields, status and vendor
 * (when it changed is not compared). An unchanged record is not written, and keeps its `updated_at`.
 */
export function sameContent(stored: StoredItem, next: StoredItem): boolean {
  const a = content(stored);
  const b = content(next);
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    const [x, y] = [a[key], b[key]];
    if (x instanceof Uint8Array && y instanceof Uint8Array) {
      return x.length === y.length && x.every((byte, i) => byte === y[i]);
    }
    return Object.hasOwn(b, key) && x === y;
  });
}
