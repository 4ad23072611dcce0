/**
 * A vacancy as an item of the vacancies table, and back. The item keeps the record's field names (so the
 * listing reads exactly the vacancy object's fields), with the vendor as `vendorId`, `created_at` as a UTC
 * instant, null fields left out, and the active-index attributes while the vacancy is active.
 */
import { activeIndexAttributes } from './active-index';
import type { ActiveIndexAttribute } from './tables';
import { NULLABLE_FIELDS, RECORD_FIELDS, type Vacancy, type VacancyField } from './vacancy';

type NullableField = (typeof NULLABLE_FIELDS)[number];

/** A vacancy as stored: null fields absent, the vendor as `vendorId`, `created_at` in UTC. */
export type StoredVacancy = {
  readonly [F in Exclude<keyof Vacancy, NullableField | 'vendor_id' | 'created_at'>]: Vacancy[F];
} & { readonly [F in NullableField]?: number } & {
  readonly vendorId: string;
  /** UTC instant to the second: `2026-03-01T05:30:00Z`. */
  readonly created_at: string;
};

/** A vacancy item of the table: the stored vacancy, with the active-index attributes while active. */
export type VacancyItem = StoredVacancy & Partial<Record<ActiveIndexAttribute, unknown>>;

/** What the listing reads of an item: the vacancy object's fields, and the vendor (to check it owns the item). */
export type ListedVacancy = Pick<StoredVacancy, VacancyField | 'vendorId'>;

/** `2026-03-01T05:30:00Z`: an instant in UTC, to the second. */
export function utcInstant(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

/** The table item of a vacancy: a put replaces the whole item, so a status change moves it in or out of the index. */
export function toVacancyItem(vacancy: Vacancy): VacancyItem {
  const item: Record<string, unknown> = {};
  for (const field of RECORD_FIELDS) {
    const value = vacancy[field];
    if (value !== null) item[field] = value;
  }
  delete item.vendor_id;
  return {
    ...(item as Omit<VacancyItem, 'vendorId' | 'created_at'>),
    vendorId: vacancy.vendor_id,
    created_at: utcInstant(vacancy.created_at),
    ...activeIndexAttributes(vacancy),
  };
}

/** The vacancy a stored item was made from: the inverse of `toVacancyItem` (for status changes). */
export function fromVacancyItem(item: VacancyItem): Vacancy {
  const vacancy: Record<string, unknown> = {};
  for (const field of RECORD_FIELDS) vacancy[field] = item[field as keyof VacancyItem];
  for (const field of NULLABLE_FIELDS) vacancy[field] ??= null;
  return {
    ...(vacancy as unknown as Vacancy),
    vendor_id: item.vendorId,
    created_at: new Date(item.created_at),
  };
}
