/**
 * Every write of vacancies goes through here (docs/design.md#the-summary): the import, the status changes and
 * deletions of the ops CLI, the expiry job, the purge. A write is decided from the item as it is, and made only if
 * the item is still so (a condition on its change time), so that what it changes in its vendor's counts is exact;
 * a writer that lost a race decides again from a fresh read. The counts move by deltas, gathered in memory and
 * added to the vendor's summary now and then — never one update per record, which would throttle on one item —
 * under a lease the writer holds on the summary from before its first write to after its last delta: while any
 * lease is there, readers do not trust the summary. A writer that stops cleanly adds what it wrote and lets go; one
 * that is killed leaves its lease, which runs out, and the summary waits for a recount (`store/recount.ts`).
 */
import { randomBytes } from 'node:crypto';
import { DeleteItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { awsFailure, isConditionFailed } from '../aws/failure';
import { capacityUnits } from '../dynamodb/batch-get';
import {
  addCounts,
  type Counts,
  countsDelta,
  leaseAttribute,
  SUMMARY,
  summaryItemKey,
} from '../schema/summary';
import { ITEM, type TableNames } from '../schema/tables';
import type { StoredItem } from '../schema/vacancy-item';
import { serverAlignedClock } from './clock';

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
  /** The clock of change times (ms); DynamoDB's when this machine's runs behind it (`store/clock.ts`). */
  readonly now?: () => number;
  /** How long a lease lasts unless renewed; a writer renews it as it adds its deltas. */
  readonly leaseMs?: number;
  /** How often a writer adds the deltas it has gathered. */
  readonly flushMs?: number;
}

/** A lease, unless renewed, lasts a minute: a writer killed mid-way holds the summary no longer. */
export const LEASE_MS = 60_000;
const FLUSH_MS = 5_000;
/** Attributes one summary update names, at most (an update expression must stay under 4 KB). */
const ATTRIBUTES_PER_UPDATE = 100;
/**
 * How long one write may take from its stamp (docs/design.md#incremental-sync): a write not done by then is given
 * up (and decided again, with a new stamp), so that no change reaches the table long after the time it carries.
 */
export const WRITE_WINDOW_MS = 2_000;
/** Tries of one write that keeps losing races, before it gives up. */
const MAX_RACES = 8;

/** A writer's hold on one vendor's summary, and what it has changed of the counts since it last added them. */
interface Session {
  readonly vendorId: string;
  readonly lease: string;
  acquired?: Promise<void>;
  pending: Counts;
  /** Attributes to set when the writer lets go (the purge horizon). */
  readonly settle: Map<string, unknown>;
  lastFlush: number;
  /** When the lease runs out unless renewed (ms, by this writer's clock). */
  expires: number;
  flushing?: Promise<void>;
  lost: boolean;
}

/**
 * A writer lost its lease on a vendor's summary — it ran out while DynamoDB was slow, and a recount took over — so it
 * writes no more of that vendor's vacancies: their counts could no longer be kept. What it wrote is in the table;
 * the summary waits for the recount. Running the same work again completes it.
 */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
  constructor(readonly vendorId: string) {
    super(`lost the lease on the summary of vendor ${vendorId}`);
  }
}

/** The writers of one run: one lease per vendor written, let go by `close()`. */
export class VacancyWriters {
  readonly #client: DynamoDBDocumentClient;
  readonly #tables: TableNames;
  readonly #now: () => number;
  readonly #leaseMs: number;
  readonly #flushMs: number;
  readonly #id = randomBytes(6).toString('hex');
  readonly #sessions = new Map<string, Session>();
  /** Every vendor written by this run. */
  readonly #written = new Set<string>();
  /** Writes under way: `close()` waits for them, so that their deltas are added before it lets go. */
  readonly #inFlight = new Set<Promise<unknown>>();
  #closed = false;
  /** Write capacity units the writes and summary updates consumed (as DynamoDB reports them). */
  writeUnits = 0;
  /** Read capacity units of the reads a lost race made. */
  readUnits = 0;
  /** Updates of summaries: taking a lease, adding deltas, letting go (a few per vendor, whatever the records). */
  summaryWrites = 0;

  constructor(options: WritersOptions) {
    this.#client = options.client;
    this.#tables = options.tables;
    this.#now = options.now ?? serverAlignedClock(options.client as never);
    this.#leaseMs = options.leaseMs ?? LEASE_MS;
    this.#flushMs = options.flushMs ?? FLUSH_MS;
  }

  /** The change time for a new state of an item: now, and always after its last one. */
  #changeTime(current: StoredItem | undefined): number {
    return Math.max(this.#now(), (current?.[ITEM.updatedAt] ?? 0) + 1);
  }

  #session(vendorId: string): Session {
    let session = this.#sessions.get(vendorId);
    if (!session) {
      session = {
        vendorId,
        lease: `${this.#id}${this.#sessions.size.toString(36)}`,
        pending: new Map(),
        settle: new Map(),
        lastFlush: this.#now(),
        expires: 0,
        lost: false,
      };
      this.#sessions.set(vendorId, session);
    }
    return session;
  }

  /** Takes the vendor's lease, once, before the first write: readers stop trusting the summary first. */
  async #acquire(session: Session): Promise<void> {
    session.acquired ??= (async () => {
      const output = await this.#client.send(
        new UpdateCommand({
          TableName: this.#tables.vendors,
          Key: summaryItemKey(session.vendorId),
          UpdateExpression: 'SET #lease = :expires ADD #version :one',
          ExpressionAttributeNames: { '#lease': leaseAttribute(session.lease), '#version': SUMMARY.version },
          ExpressionAttributeValues: { ':expires': this.#now() + this.#leaseMs, ':one': 1 },
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.writeUnits += capacityUnits(output.ConsumedCapacity);
      this.summaryWrites += 1;
      session.lastFlush = this.#now();
      session.expires = session.lastFlush + this.#leaseMs;
    })();
    await session.acquired;
  }

  /**
   * Makes sure the vendor's lease is held, with at least half its time left, before a write: an item write is not
   * conditioned on the lease (DynamoDB Local's engines have no transactions to tie the two), so the lease must
   * outlast every write made under it. The write itself is given up when the lease runs out (`#writeSignal`); a
   * recount takes over only after that, and waits the index's settle window before it counts.
   */
  async #hold(session: Session): Promise<void> {
    await this.#acquire(session);
    if (!session.lost && this.#now() >= session.expires - this.#leaseMs / 2)
      await this.#flush(session, false);
    if (session.lost) throw new LeaseLostError(session.vendorId);
  }

  /** A signal that aborts a write at the end of its window, or sooner if its vendor's lease runs out first. */
  #writeSignal(session: Session): AbortSignal {
    return AbortSignal.timeout(Math.max(0, Math.min(WRITE_WINDOW_MS, session.expires - this.#now())));
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
    for (let race = 1; ; race += 1) {
      const decision = decide(item, this.#changeTime(item));
      if ('unchanged' in decision) return { unchanged: item };
      if ('refuse' in decision) return { refused: decision.refuse, current: item };
      // A write never moves an item to another vendor: it is the vendor of what is written, or of what is removed.
      const vendorId = ('put' in decision ? decision.put : item)?.[ITEM.vendor];
      if (vendorId === undefined) throw new Error(`Nothing to remove under id ${id}`);
      const session = this.#session(vendorId);
      await this.#hold(session);
      // Stamped now, just before it is sent, and given up if it takes longer than the write window: a change
      // reaches the table soon after its stamp, which the sync's settle window counts on.
      const stamped = decide(item, this.#changeTime(item));
      if (!('put' in stamped) && !('remove' in stamped)) continue;
      const after = 'put' in stamped ? stamped.put : undefined;
      const signal = this.#writeSignal(session);
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
        this.writeUnits += capacityUnits(output.ConsumedCapacity);
      } catch (error) {
        // A lost race, or a write given up at the end of its window: read the item again, decide again.
        if ((!isConditionFailed(error) && !signal.aborted) || race >= MAX_RACES) throw error;
        item = await this.#read(id);
        continue;
      }
      this.#written.add(vendorId);
      addCounts(session.pending, countsDelta(item, after));
      if (this.#now() - session.lastFlush >= this.#flushMs) {
        // Marked at once, so that the writes finishing meanwhile do not each start a flush of their own.
        session.lastFlush = this.#now();
        await this.#flush(session, false);
      }
      return after ? { written: after, before: item } : { removed: item as StoredItem };
    }
  }

  /**
   * Sets a summary attribute when the writer lets go of the vendor (the purge horizon, say), taking the vendor's
   * lease now if no write has: letting go then bumps the version too.
   */
  async settleWith(vendorId: string, name: string, value: unknown): Promise<void> {
    const session = this.#session(vendorId);
    session.settle.set(name, value);
    await this.#acquire(session);
  }

  /**
   * Adds the pending deltas to the summary and renews the lease — or, at the end, lets go: bumps the version and
   * records when. Done in updates of at most `ATTRIBUTES_PER_UPDATE` counts, each only while the lease is still
   * there: a writer whose lease was taken away (it ran out, and a recount started) marks the summary broken instead,
   * since its deltas can no longer be placed.
   */
  async #flush(session: Session, release: boolean): Promise<void> {
    const previous = session.flushing ?? Promise.resolve();
    const run = previous.then(async () => {
      if (!session.acquired) return;
      await session.acquired;
      const entries = [...session.pending];
      session.pending = new Map();
      const parts: [string, number][][] = [];
      for (let i = 0; i < entries.length; i += ATTRIBUTES_PER_UPDATE) {
        parts.push(entries.slice(i, i + ATTRIBUTES_PER_UPDATE));
      }
      if (parts.length === 0) parts.push([]);
      for (const [index, part] of parts.entries()) {
        const last = index === parts.length - 1;
        await this.#updateSummary(session, part, release && last);
      }
      session.lastFlush = this.#now();
    });
    session.flushing = run.catch(() => undefined);
    await run;
  }

  async #updateSummary(session: Session, counts: [string, number][], release: boolean): Promise<void> {
    const names: Record<string, string> = { '#lease': leaseAttribute(session.lease) };
    const values: Record<string, unknown> = {};
    const adds = counts.map(([name, delta], i) => {
      names[`#a${i}`] = name;
      values[`:a${i}`] = delta;
      return `#a${i} :a${i}`;
    });
    const sets: string[] = [];
    if (release) {
      names['#version'] = SUMMARY.version;
      values[':one'] = 1;
      adds.push('#version :one');
      names['#settled'] = SUMMARY.settledAt;
      values[':settled'] = this.#now();
      sets.push('#settled = :settled');
      [...session.settle].forEach(([name, value], i) => {
        names[`#s${i}`] = name;
        values[`:s${i}`] = value;
        sets.push(`#s${i} = :s${i}`);
      });
    } else {
      values[':expires'] = this.#now() + this.#leaseMs;
      sets.push('#lease = :expires');
    }
    const expression = [
      sets.length > 0 ? `SET ${sets.join(', ')}` : '',
      adds.length > 0 ? `ADD ${adds.join(', ')}` : '',
      release ? 'REMOVE #lease' : '',
    ]
      .filter(Boolean)
      .join(' ');
    if (session.lost) return this.#markBroken(session);
    try {
      const output = await this.#client.send(
        new UpdateCommand({
          TableName: this.#tables.vendors,
          Key: summaryItemKey(session.vendorId),
          UpdateExpression: expression,
          ConditionExpression: 'attribute_exists(#lease)',
          ExpressionAttributeNames: names,
          ...(Object.keys(values).length > 0 && { ExpressionAttributeValues: values }),
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.writeUnits += capacityUnits(output.ConsumedCapacity);
      this.summaryWrites += 1;
      if (!release) session.expires = values[':expires'] as number;
    } catch (error) {
      // The lease is gone, or the summary cannot grow (DynamoDB refuses an item past 400 KB): its counts can no
      // longer be kept, and it says so.
      if (!isConditionFailed(error) && awsFailure(error) !== 'refused') throw error;
      session.lost = true;
      await this.#markBroken(session);
    }
  }

  async #markBroken(session: Session): Promise<void> {
    const output = await this.#client.send(
      new UpdateCommand({
        TableName: this.#tables.vendors,
        Key: summaryItemKey(session.vendorId),
        UpdateExpression: 'SET #broken = :true ADD #version :one REMOVE #lease',
        ExpressionAttributeNames: {
          '#broken': SUMMARY.broken,
          '#version': SUMMARY.version,
          '#lease': leaseAttribute(session.lease),
        },
        ExpressionAttributeValues: { ':true': true, ':one': 1 },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    this.writeUnits += capacityUnits(output.ConsumedCapacity);
    this.summaryWrites += 1;
  }

  /**
   * Adds every pending delta and lets go of every lease. Called at the end of a run, also after a failure: what
   * was written is counted. Should DynamoDB fail here too, the leases stay, run out, and the summaries wait for a
   * recount — never trusted meanwhile.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#inFlight]);
    const failures: unknown[] = [];
    for (const session of this.#sessions.values()) {
      try {
        await this.#flush(session, true);
      } catch (error) {
        failures.push(error);
      }
    }
    this.#sessions.clear();
    if (failures.length > 0) throw failures[0];
  }

  /** The vendors this run has written, so far. */
  get vendors(): string[] {
    return [...this.#written];
  }
}
