/**
 * The search entries a warm function holds (docs/design.md#search), by vendor: the vendors it served last, each for
 * exactly one state of the vendor's summary (its stamp), up to a budget of entries — the least recently used go
 * first. The listing's search source asks for a vendor's entries here before it reads them.
 */
import type { SearchEntry } from './search-entry';

/** The state of a vendor's summary held entries are valid for: its version and when its last writer let go. */
export type SummaryStamp = string;

/** A summary's stamp. */
export const summaryStamp = (summary: { version: number; releasedAt: number | undefined }): SummaryStamp =>
  `${summary.version}/${summary.releasedAt ?? ''}`;

/**
 * The vendors' search entries a function holds, for one summary stamp each: the vendors served last, up to a budget
 * of entries (the least recently used go first; a vendor larger than the budget is not held).
 */
export class HeldEntries {
  private readonly held = new Map<string, { stamp: SummaryStamp; entries: readonly SearchEntry[] }>();
  private size = 0;

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  /** A vendor's entries, if held for exactly this stamp. */
  get(vendorId: string, stamp: SummaryStamp): readonly SearchEntry[] | undefined {
    const held = this.held.get(vendorId);
    if (!held || held.stamp !== stamp) return undefined;
    // Most recently used last.
    this.held.delete(vendorId);
    this.held.set(vendorId, held);
    return held.entries;
  }

  /** Holds a vendor's entries for a stamp, in place of any it held. */
  set(vendorId: string, stamp: SummaryStamp, entries: readonly SearchEntry[]): void {
    this.delete(vendorId);
    if (entries.length > this.maxEntries) return;
    while (this.size + entries.length > this.maxEntries) {
      const oldest = this.held.keys().next().value as string;
      this.delete(oldest);
    }
    this.held.set(vendorId, { stamp, entries });
    this.size += entries.length;
  }

  private delete(vendorId: string): void {
    const held = this.held.get(vendorId);
    if (!held) return;
    this.held.delete(vendorId);
    this.size -= held.entries.length;
  }
}

/**
 * Entries a function holds at most: some 250 bytes each with their folded words, about 50 MB of the listing
 * function's 512 — a vendor of 100,000 active vacancies, or many smaller ones.
 */
const DEFAULT_MAX_ENTRIES = 200_000;
