/**
 * Reads of the change index (docs/design.md#incremental-sync): a range of a vendor's changes, oldest first — the
 * first entries a sync page needs, and whether more follow — and how many a range holds.
 */
import type { ReadCost } from '../../platform/dynamodb/capacity';
import { collectQuery, countQuery, type MeteredQueryTarget } from '../../platform/dynamodb/metered-query';
import { changeRange } from '../schema/change-index';
import { ITEM } from '../schema/tables';
import type { StoredStatus } from '../schema/vacancy';

/** A change of a vendor's, as the change index holds it: the item's id, its status then, and its change key. */
export interface ChangeEntry {
  readonly id: number;
  readonly status: StoredStatus;
  readonly change: Uint8Array;
}

/** A range of a vendor's change index, both ends included (change keys). */
export interface ChangeRange {
  readonly vendorId: string;
  readonly from: Uint8Array;
  readonly to: Uint8Array;
  readonly signal?: AbortSignal | undefined;
}

/** The first `limit` changes of a range, oldest first, and whether more follow. */
export async function readChangeEntries(
  target: MeteredQueryTarget,
  range: ChangeRange & { readonly limit: number },
): Promise<ReadCost & { entries: ChangeEntry[]; more: boolean }> {
  const { items, readUnits, calls } = await collectQuery(
    target,
    changeRange(range.vendorId, range.from, range.to),
    range.signal,
    range.limit + 1,
    (found) => range.limit + 1 - found,
    (entry): ChangeEntry => ({
      id: entry.id as number,
      status: entry.status as StoredStatus,
      change: entry[ITEM.change] as Uint8Array,
    }),
  );
  return { entries: items.slice(0, range.limit), more: items.length > range.limit, readUnits, calls };
}

/** How many changes a range holds. */
export function countChangeEntries(
  target: MeteredQueryTarget,
  range: ChangeRange,
): Promise<ReadCost & { total: number }> {
  return countQuery(target, changeRange(range.vendorId, range.from, range.to), range.signal);
}
