/**
 * Every write of vacancies goes through here (docs/design.md#the-summary): the import, the status changes and
 * deletions of the ops CLI, the expiry job, the purge. A write is decided from the item as it is, and made only if
 * the item is still so (a condition on its change time), so that what it changes in its vendor's counts is exact;
 * a writer that lost a race decides again from a fresh read. What a write changes in the counts goes to the
 * vendor's summary under the run's lease on it (`summary-leases.ts`), held from before the first write to after the
 * last delta. A run that stops cleanly adds what it wrote and lets go; one that is killed leaves its lease, which
 * runs out, and the summary waits for a recount (`recount.ts`) — which the lease's guard runs, when the run was given
 * a timer for guards (`summary-guard.ts`).
 */
import { randomBytes } from 'node:crypto';
import { DeleteItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { isConditionFailed, outcomeUnknown } from '../../platform/aws/failure';
import { capacityUnits } from '../../platform/dynamodb/capacity';
import { countsDelta } from '../schema/summary';
import { ITEM, type TableNames } from '../schema/tables';
import type { StoredItem } from '../schema/vacancy-item';
import { serverClock } from './clock';
import type { SummaryGuardTimer } from './summary-guard';
import { SummaryLeases } from './summary-leases';
import { SummaryStore } from './summary-store';

/** What a writer makes of an item as it is (undefined: there is none), at the change time it would stamp. */
export type Decide = (current: StoredItem | undefined, updatedAt: number) => Decision;

/** A writer's decision about one item. */
export type Decision =
  | { readonly put: StoredItem }
  | { readonly remove: true }
  | { readonly unchanged: true }
  | { readonly refuse: string };

/** What a write did. */
export type WriteOutcome =
  | { readonly written: StoredItem; readonly before: StoredItem | undefined }
  | { readonly removed: StoredItem }
  | { readonly unchanged: StoredItem | undefined }
  | { readonly refused: string; readonly current: StoredItem | undefined };

/** How writers work. */
export interface WritersOptions {
  readonly client: DynamoDBDocumentClient;
  readonly tables: TableNames;
  /** The clock of change times (ms); DynamoDB's when this machine's runs behind it (`domain/store/clock.ts`). */
  readonly now?: () => number;
  /** How long a lease lasts unless renewed; a writer renews it as it adds its deltas (`summary-leases.ts`). */
  readonly leaseMs?: number;
  /** How often a writer adds the deltas it has gathered. */
  readonly flushMs?: number;
  /**
   * A mark every write's token starts with (`isMarkedWrite`): an import's file (docs/design.md#hostile-files), so
   * that another attempt at the same file knows what an earlier one wrote. Letters, digits, `-` and `_`.
   */
  readonly mark?: string;

  /** The timer of the leases' guards, which recover a summary should the run die (`summary-guard.ts`). */
  readonly guard?: SummaryGuardTimer;
}

/** Whether an item was put by a write of writers given this `mark`. */
export const isMarkedWrite = (item: StoredItem | undefined, mark: string): boolean =>
  item?.[ITEM.write]?.startsWith(`${mark}.`) === true;

/**
 * How long one write may take from its stamp (docs/design.md#incremental-sync): a write not done by then is given
 * up (and decided again, with a new stamp), so that no change reaches the table long after the time it carries.
 */
export const WRITE_WINDOW_MS = 2_000;
/** Tries of one write that keeps losing races, before it gives up. */
const MAX_RACES = 8;

/** Whether a write sent landed: the item now is what it wrote (its stamp and vendor), or gone if it removed. */
function isLanded(
  write: { readonly before: StoredItem | undefined; readonly after: StoredItem | undefined },
  now: StoredItem | undefined,
): boolean {
  if (!write.after) return now === undefined && write.before !== undefined;
  return now !== undefined && now[ITEM.write] === write.after[ITEM.write];
}

/** The writers of one run: one lease per vendor written, let go by `close()`. */
export class VacancyWriters {
  readonly #client: DynamoDBDocumentClient;
  readonly #tables: TableNames;
  readonly #now: () => number;
  readonly #leases: SummaryLeases;
  /** This run's name (random, after its mark) and how many writes it sent: the writes' tokens. */
  readonly #run: string;
  #writes = 0;
  /** Every vendor written by this run. */
  readonly #written = new Set<string>();
  /** Writes under way: `close()` waits for them, so that their deltas are added before it lets go. */
  readonly #inFlight = new Set<Promise<unknown>>();
  #closed = false;
  /** Write capacity units of the item writes (as DynamoDB reports them). */
  #itemWriteUnits = 0;
  /** Read capacity units of the reads a lost race made. */
  readUnits = 0;

  constructor(options: WritersOptions) {
    this.#client = options.client;
    this.#tables = options.tables;
    this.#now = options.now ?? serverClock(options.client as never);
    const run = randomBytes(6).toString('base64url');
    this.#run = options.mark === undefined ? run : `${options.mark}.${run}`;
    this.#leases = new SummaryLeases({
      store: new SummaryStore(options.client, options.tables.vendors),
      now: this.#now,
      writer: randomBytes(6).toString('hex'),
      ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
      ...(options.flushMs !== undefined && { flushMs: options.flushMs }),
      ...(options.guard && { guard: options.guard }),
    });
  }

  /** Write capacity units the writes and summary updates consumed (as DynamoDB reports them). */
  get writeUnits(): number {
    return this.#itemWriteUnits + this.#leases.writeUnits;
  }

  /** Updates of summaries: taking a lease, adding deltas, letting go (a few per vendor, whatever the records). */
  get summaryWrites(): number {
    return this.#leases.updates;
  }

  /** A token for one write, unique to it (`ITEM.write`). */
  #writeToken(): string {
    this.#writes += 1;
    return `${this.#run}${this.#writes.toString(36)}`;
  }

  /** The change time for a new state of an item: now, and always after its last one. */
  #changeTime(current: StoredItem | undefined): number {
    return Math.max(this.#now(), (current?.[ITEM.updatedAt] ?? 0) + 1);
  }

  /** The item as it is now, read strongly (after a lost race). */
  async #read(id: number): Promise<StoredItem | undefined> {
    const output = await this.#client.send(
      new GetCommand({
        TableName: this.#tables.vacancies,
        Key: { id },
        ConsistentRead: true,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    this.readUnits += capacityUnits(output.ConsumedCapacity);
    return output.Item as StoredItem | undefined;
  }

  /** The condition that the item is still `current`: absent, or the same vendor's at the same change time. */
  #unchangedSince(current: StoredItem | undefined) {
    if (!current) return { ConditionExpression: 'attribute_not_exists(id)' };
    return {
      ConditionExpression: '#vendor = :vendor AND #updated = :updated',
      ExpressionAttributeNames: { '#vendor': ITEM.vendor, '#updated': ITEM.updatedAt },
      ExpressionAttributeValues: marshall({
        ':vendor': current[ITEM.vendor],
        ':updated': current[ITEM.updatedAt],
      }),
    };
  }

  /**
   * Writes one item: `decide` says what it becomes from what it is (`current`, as last read, null for none; read now
   * when not given). The write is made only if the item is still as decided from; otherwise it is read again and
   * decided again. Its change to the counts is added to its vendor's pending deltas, under the vendor's lease.
   */
  write(id: number, decide: Decide, current?: StoredItem | null): Promise<WriteOutcome> {
    if (this.#closed) return Promise.reject(new Error('These writers are closed'));
    const writing = this.#write(id, decide, current);
    this.#inFlight.add(writing);
    const done = () => this.#inFlight.delete(writing);
    writing.then(done, done);
    return writing;
  }

  async #write(id: number, decide: Decide, current?: StoredItem | null): Promise<WriteOutcome> {
    let item = current === undefined ? await this.#read(id) : (current ?? undefined);
    /** Every write this call sent, by the item it was decided from: one given up may have landed all the same. */
    const sent: { readonly before: StoredItem | undefined; readonly after: StoredItem | undefined }[] = [];
    for (let race = 1; ; race += 1) {
      const decision = decide(item, this.#changeTime(item));
      if ('unchanged' in decision) return { unchanged: item };
      if ('refuse' in decision) return { refused: decision.refuse, current: item };
      // A write never moves an item to another vendor: it is the vendor of what is written, or of what is removed.
      const vendorId = ('put' in decision ? decision.put : item)?.[ITEM.vendor];
      if (vendorId === undefined) throw new Error(`Nothing to remove under id ${id}`);
      await this.#leases.hold(vendorId);
      // Stamped now, just before it is sent, and given up if it takes longer than the write window: a change
      // reaches the table soon after its stamp, which the sync's settle window counts on.
      const stamped = decide(item, this.#changeTime(item));
      if (!('put' in stamped) && !('remove' in stamped)) continue;
      // Each put carries its own token: landed, it is known by it.
      const after =
        'put' in stamped ? ({ ...stamped.put, [ITEM.write]: this.#writeToken() } as StoredItem) : undefined;
      if (after) this.#leases.stamped(vendorId, after[ITEM.updatedAt]);
      const signal = this.#leases.writeSignal(vendorId, WRITE_WINDOW_MS);
      sent.push({ before: item, after });
      try {
        const condition = this.#unchangedSince(item);
        const output = after
          ? await this.#client.send(
              new PutItemCommand({
                TableName: this.#tables.vacancies,
                Item: marshall(after, { removeUndefinedValues: true }),
                ...condition,
                ReturnConsumedCapacity: 'TOTAL',
              }),
              { abortSignal: signal },
            )
          : await this.#client.send(
              new DeleteItemCommand({
                TableName: this.#tables.vacancies,
                Key: marshall({ id }),
                ...condition,
                ReturnConsumedCapacity: 'TOTAL',
              }),
              { abortSignal: signal },
            );
        this.#itemWriteUnits += capacityUnits(output.ConsumedCapacity);
      } catch (error) {
        // A lost race, a write given up at the end of its window, or the SDK's repeat of a write whose answer came
        // too late: read the item again. A write of this call that landed all the same is known by its own stamp.
        // A call that may have been applied (no answer, a server's failure) is settled like a write given up.
        if (!isConditionFailed(error) && !signal.aborted && !outcomeUnknown(error)) throw error;
        let now: StoredItem | undefined;
        try {
          now = await this.#read(id);
        } catch (readError) {
          // Not even a read: what it sent may land unknown to it; the summary says so when the run lets go.
          if (!isConditionFailed(error)) this.#leases.unsettled(vendorId);
          throw readError;
        }
        const landed = sent.find((write) => isLanded(write, now));
        if (landed) return this.#landed(vendorId, landed);
        if (race >= MAX_RACES) {
          // What it sent may still land, unless every try was refused: the summary cannot count it then, and says
          // so when the run lets go.
          if (!isConditionFailed(error)) this.#leases.unsettled(vendorId);
          throw error;
        }
        item = now;
        continue;
      }
      this.#written.add(vendorId);
      await this.#leases.record(vendorId, countsDelta(item, after));
      return after ? { written: after, before: item } : { removed: item as StoredItem };
    }
  }

  /**
   * Counts a write of this call that landed after it was given up, or whose answer came too late. It landed while
   * the run held the vendor's lease, so no sync had handed out a snapshot after its stamp
   * (docs/design.md#incremental-sync); and every other try of it was decided from the same item or an older one, so none of them can land now.
   */
  async #landed(
    vendorId: string,
    landed: { readonly before: StoredItem | undefined; readonly after: StoredItem | undefined },
  ): Promise<WriteOutcome> {
    this.#written.add(vendorId);
    await this.#leases.record(vendorId, countsDelta(landed.before, landed.after));
    return landed.after
      ? { written: landed.after, before: landed.before }
      : { removed: landed.before as StoredItem };
  }

  /**
   * Adds every pending delta and lets go of every lease. Called at the end of a run, also after a failure: what
   * was written is counted. Should DynamoDB fail here too, the leases stay, run out, and the summaries wait for a
   * recount — never trusted meanwhile.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#inFlight]);
    await this.#leases.releaseAll();
  }

  /** The vendors this run has written, so far. */
  get vendors(): string[] {
    return [...this.#written];
  }
}
