/**
 * The per-vendor summary's persistence (docs/design.md#the-summary): every read and write of a summary item of the
 * vendors table is a method here or in `summary-reader.ts` (the reads the listing bundles, which `SummaryStore`
 * extends), and nowhere else (a test holds the code to that). The record and its rules are
 * `domain/schema/summary.ts`; the protocols built on these calls are the writers' leases (`summary-leases.ts`) and the
 * recount (`recount.ts`) — the split of Powertools' idempotency utility into record, persistence and orchestration.
 *
 * Each write reports the write units it consumed (as DynamoDB reports them), so that a writer can account for them.
 */
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { awsFailure, isConditionFailed } from '../../platform/aws/failure';
import { capacityUnits } from '../../platform/dynamodb/capacity';
import {
  type Counts,
  countAttribute,
  dayAttribute,
  leaseAttribute,
  leaseStartAttribute,
  SUMMARY,
  type Summary,
  sequenceAttribute,
  summaryItemKey,
} from '../schema/summary';
import { SummaryLeaseLostError } from './errors';
import { SummaryReader } from './summary-reader';

/** What one update under a lease does besides adding counts: renew the lease, or let go of it. */
export type LeaseUpdate =
  | { readonly renewUntil: number }
  | {
      /** When the writer lets go (ms): the summary's `releasedAt`. */
      readonly releasedAt: number;
    };

/** Every read and write of the summary items of one vendors table. */
export class SummaryStore extends SummaryReader {
  constructor(
    protected override readonly client: DynamoDBDocumentClient,
    vendorsTable: string,
  ) {
    super(client, vendorsTable);
  }

  /**
   * Takes a writer's lease from `began` until `expires` (ms), its update sequence at 0, bumping the version: readers
   * stop trusting the summary, and syncs hand out no snapshot after `began`. (Sent twice, it changes nothing more
   * than the version.)
   */
  async takeWriterLease(vendorId: string, lease: string, began: number, expires: number): Promise<number> {
    const output = await this.client.send(
      new UpdateCommand({
        TableName: this.vendorsTable,
        Key: summaryItemKey(vendorId),
        UpdateExpression: 'SET #lease = :expires, #began = :began, #sequence = :zero ADD #version :one',
        ExpressionAttributeNames: {
          '#lease': leaseAttribute(lease),
          '#began': leaseStartAttribute(lease),
          '#sequence': sequenceAttribute(lease),
          '#version': SUMMARY.version,
        },
        ExpressionAttributeValues: { ':expires': expires, ':began': began, ':zero': 0, ':one': 1 },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    return capacityUnits(output.ConsumedCapacity);
  }

  /**
   * Adds `counts` (at most 100 of them: an update expression stays under 4 KB) under the lease, and renews it or
   * lets go of it (bumping the version, recording when) — only while the lease is still there, and only as the
   * lease's update number `sequence`: the update moves the sequence on, so the same update sent again (an answer
   * that came after the SDK's timeout, and its retry) is refused, and recognised here as applied — never added
   * twice. Letting go keeps the sequence as a marker, until pruned. Throws `SummaryLeaseLostError` when the lease is gone,
   * or the item cannot grow.
   */
  async updateUnderLease(
    vendorId: string,
    lease: string,
    sequence: number,
    counts: readonly (readonly [string, number])[],
    update: LeaseUpdate,
  ): Promise<number> {
    const names: Record<string, string> = {
      '#lease': leaseAttribute(lease),
      '#sequence': sequenceAttribute(lease),
    };
    if ('releasedAt' in update) names['#began'] = leaseStartAttribute(lease);
    const values: Record<string, unknown> = { ':sequence': sequence, ':next': sequence + 1 };
    const adds = counts.map(([name, delta], i) => {
      names[`#a${i}`] = name;
      values[`:a${i}`] = delta;
      return `#a${i} :a${i}`;
    });
    const sets: string[] = ['#sequence = :next'];
    const release = 'releasedAt' in update;
    if (release) {
      names['#version'] = SUMMARY.version;
      values[':one'] = 1;
      adds.push('#version :one');
      names['#settled'] = SUMMARY.releasedAt;
      values[':settled'] = update.releasedAt;
      sets.push('#settled = :settled');
    } else {
      values[':expires'] = update.renewUntil;
      sets.push('#lease = :expires');
    }
    const expression = [
      sets.length > 0 ? `SET ${sets.join(', ')}` : '',
      adds.length > 0 ? `ADD ${adds.join(', ')}` : '',
      release ? 'REMOVE #lease, #began' : '',
    ]
      .filter(Boolean)
      .join(' ');
    try {
      const output = await this.client.send(
        new UpdateCommand({
          TableName: this.vendorsTable,
          Key: summaryItemKey(vendorId),
          UpdateExpression: expression,
          ConditionExpression: 'attribute_exists(#lease) AND #sequence = :sequence',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      return capacityUnits(output.ConsumedCapacity);
    } catch (error) {
      if (isConditionFailed(error) && (await this.#applied(vendorId, lease, sequence + 1))) return 0;
      if (isConditionFailed(error) || awsFailure(error) === 'refused')
        throw new SummaryLeaseLostError(vendorId);
      throw error;
    }
  }

  /** Whether the lease's update number `sequence` is in the item: an update refused as a repeat was applied. */
  async #applied(vendorId: string, lease: string, sequence: number): Promise<boolean> {
    const output = await this.client.send(
      new GetCommand({
        TableName: this.vendorsTable,
        Key: summaryItemKey(vendorId),
        ConsistentRead: true,
        ProjectionExpression: '#sequence',
        ExpressionAttributeNames: { '#sequence': sequenceAttribute(lease) },
      }),
    );
    return output.Item?.[sequenceAttribute(lease)] === sequence;
  }

  /**
   * Raises the latest stamp written (`SUMMARY.latestStamp`) to `stamp`, never lowering it: a writer does so before
   * it lets go of its lease, with the latest stamp it sent (landed or not).
   */
  async raiseLatestStamp(vendorId: string, stamp: number): Promise<number> {
    try {
      const output = await this.client.send(
        new UpdateCommand({
          TableName: this.vendorsTable,
          Key: summaryItemKey(vendorId),
          UpdateExpression: 'SET #latest = :stamp',
          ConditionExpression: 'attribute_not_exists(#latest) OR #latest < :stamp',
          ExpressionAttributeNames: { '#latest': SUMMARY.latestStamp },
          ExpressionAttributeValues: { ':stamp': stamp },
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      return capacityUnits(output.ConsumedCapacity);
    } catch (error) {
      // Already as late or later: nothing to raise.
      if (isConditionFailed(error)) return 0;
      throw error;
    }
  }

  /** Marks the summary broken (until a recount) and lets go of the lease: a writer that lost track says so. */
  async markBroken(vendorId: string, lease: string): Promise<number> {
    const output = await this.client.send(
      new UpdateCommand({
        TableName: this.vendorsTable,
        Key: summaryItemKey(vendorId),
        UpdateExpression: 'SET #broken = :true ADD #version :one REMOVE #lease, #began',
        ExpressionAttributeNames: {
          '#broken': SUMMARY.broken,
          '#version': SUMMARY.version,
          '#lease': leaseAttribute(lease),
          '#began': leaseStartAttribute(lease),
        },
        ExpressionAttributeValues: { ':true': true, ':one': 1 },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    return capacityUnits(output.ConsumedCapacity);
  }

  /** Lets go of a lease without changing anything else. */
  async releaseLease(vendorId: string, lease: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.vendorsTable,
        Key: summaryItemKey(vendorId),
        UpdateExpression: 'REMOVE #lease, #began',
        ExpressionAttributeNames: { '#lease': leaseAttribute(lease), '#began': leaseStartAttribute(lease) },
      }),
    );
  }

  /**
   * A recount's take-over: its lease until `expires`, the leases that ran out (`stale`) removed, the summary broken
   * until the count is written, the version bumped — only if the summary is still as `seen` (its version; absent
   * when it had none). The new version, or undefined when another writer came first.
   */
  async takeOver(
    vendorId: string,
    seen: Summary | undefined,
    lease: string,
    expires: number,
  ): Promise<number | undefined> {
    const stale = [...(seen?.leases.keys() ?? [])].flatMap((writer) => [
      leaseAttribute(writer),
      leaseStartAttribute(writer),
      sequenceAttribute(writer),
    ]);
    try {
      const output = await this.client.send(
        new UpdateCommand({
          TableName: this.vendorsTable,
          Key: summaryItemKey(vendorId),
          UpdateExpression: `SET #lease = :expires, #broken = :true ADD #version :one${stale.length > 0 ? ` REMOVE ${stale.map((_, i) => `#stale${i}`).join(', ')}` : ''}`,
          ConditionExpression: seen ? '#version = :seen' : 'attribute_not_exists(pk)',
          ExpressionAttributeNames: {
            '#lease': leaseAttribute(lease),
            '#version': SUMMARY.version,
            '#broken': SUMMARY.broken,
            ...Object.fromEntries(stale.map((name, i) => [`#stale${i}`, name])),
          },
          ExpressionAttributeValues: {
            ':expires': expires,
            ':true': true,
            ':one': 1,
            ...(seen && { ':seen': seen.version }),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return (output.Attributes?.[SUMMARY.version] as number | undefined) ?? 0;
    } catch (error) {
      if (isConditionFailed(error)) return undefined;
      throw error;
    }
  }

  /**
   * Writes a recounted summary whole — its counts, released at `releasedAt`, the purge horizon kept, the latest stamp
   * raised to `releasedAt` (a writer whose lease was taken over may have stamped up to then, and never said what),
   * the version after `version` — only if no writer took a lease since the take-over (each would have bumped the
   * version). Whether it was written.
   */
  async putRecounted(
    vendorId: string,
    version: number,
    counts: Counts,
    releasedAt: number,
    kept: { readonly purgedBefore: number | undefined; readonly latestStamp: number | undefined },
  ): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.vendorsTable,
          Item: {
            ...summaryItemKey(vendorId),
            [SUMMARY.version]: version + 1,
            [SUMMARY.releasedAt]: releasedAt,
            [SUMMARY.latestStamp]: Math.max(releasedAt, kept.latestStamp ?? 0),
            ...(kept.purgedBefore !== undefined && { [SUMMARY.purgedBefore]: kept.purgedBefore }),
            ...Object.fromEntries([...counts].filter(([, count]) => count !== 0)),
          },
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': SUMMARY.version },
          ExpressionAttributeValues: { ':version': version },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }

  /**
   * Removes the counts of a summary that have come down to zero — past deadline days, ranges no vacancy has any more —
   * so that it stays a few hundred attributes however long the vendor stays: each removed only if still zero (a
   * missing count is a zero to `ADD`, so no writer needs to know). Up to 100 at a time; the rest next time. How many
   * were removed.
   */
  async pruneZeros(vendorId: string, summary: Summary): Promise<number> {
    const zeros = [
      ...summary.ranges
        .filter(({ count }) => count === 0)
        .map(({ type, min, max }) => countAttribute(type, min, max)),
      ...[...summary.days].filter(([, count]) => count === 0).map(([day]) => dayAttribute(day)),
    ].slice(0, 80);
    // The sequences that writers left as they let go, each removed only while its lease is still gone.
    const markers = [...summary.sequences.keys()]
      .filter((writer) => !summary.leases.has(writer))
      .slice(0, 20);
    if (zeros.length === 0 && markers.length === 0) return 0;
    const removed = [...zeros, ...markers.map(sequenceAttribute)];
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.vendorsTable,
          Key: summaryItemKey(vendorId),
          UpdateExpression: `REMOVE ${removed.map((_, i) => `#z${i}`).join(', ')}`,
          ConditionExpression: [
            ...zeros.map((_, i) => `#z${i} = :zero`),
            ...markers.map((_, i) => `attribute_not_exists(#l${i})`),
          ].join(' AND '),
          ExpressionAttributeNames: {
            ...Object.fromEntries(removed.map((name, i) => [`#z${i}`, name])),
            ...Object.fromEntries(markers.map((writer, i) => [`#l${i}`, leaseAttribute(writer)])),
          },
          ...(zeros.length > 0 && { ExpressionAttributeValues: { ':zero': 0 } }),
        }),
      );
    } catch (error) {
      // A writer moved one of them meanwhile: left for the next run.
      if (isConditionFailed(error)) return 0;
      throw error;
    }
    return removed.length;
  }

  /**
   * Moves the vendor's purge horizon to `horizon` (ms), never back, and bumps the version: changes before it are no
   * longer kept as far as a sync can tell (docs/design.md#incremental-sync). Recorded before the first tombstone is
   * removed, so that a sync running meanwhile is answered 410 rather than missing a deletion. The horizon now
   * recorded (a later one already there is kept).
   */
  async raisePurgeHorizon(vendorId: string, horizon: number): Promise<number> {
    for (;;) {
      const { summary } = await this.read(vendorId);
      const raised = Math.max(horizon, summary?.purgedBefore ?? 0);
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: this.vendorsTable,
            Key: summaryItemKey(vendorId),
            UpdateExpression: 'SET #horizon = :horizon ADD #version :one',
            ConditionExpression: 'attribute_not_exists(#horizon) OR #horizon <= :horizon',
            ExpressionAttributeNames: { '#horizon': SUMMARY.purgedBefore, '#version': SUMMARY.version },
            ExpressionAttributeValues: { ':horizon': raised, ':one': 1 },
          }),
        );
        return raised;
      } catch (error) {
        // Another purge raised it further meanwhile: read it again.
        if (!isConditionFailed(error)) throw error;
      }
    }
  }

  /**
   * Changes the version (docs/design.md#the-summary): what a client sees of a vendor's vacancies depends on its
   * company name and status too, so a change of either is a change of the listing.
   */
  async bumpVersion(vendorId: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.vendorsTable,
        Key: summaryItemKey(vendorId),
        UpdateExpression: 'ADD #version :one',
        ExpressionAttributeNames: { '#version': SUMMARY.version },
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
  }
}
