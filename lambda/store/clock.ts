/**
 * What writers and recounts know of DynamoDB's clock (docs/design.md#when-a-vacancy-changed). Every answer states
 * DynamoDB's time in its `Date` header, to the second, written before the answer reached us: so `header − ours` is a
 * lower bound of how far DynamoDB's clock is ahead of this machine's, and the largest seen is the best one.
 *
 * Two clocks follow from it, each erring on its safe side:
 * - `serverAlignedClock` stamps `updated_at`. A sync hands out the change index up to "now less a few seconds";
 *   a change stamped earlier than a snapshot already handed out would never be synced. So it never runs behind
 *   DynamoDB's clock by more than about a second, however far behind this machine's is (one that runs ahead only
 *   delays a change to a later sync).
 * - `serverClock` decides whether a writer's lease has run out. Taking a lease over early would let two writers
 *   count at once, so it never runs ahead of DynamoDB's clock, however far ahead this machine's is.
 * Before the first answer, both are this machine's clock.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

const MIDDLEWARE = 'serverDate';

/** A DynamoDB client, or the document client over one (they share one middleware stack). */
export type ClockSource = Pick<DynamoDBClient, 'middlewareStack'>;

/**
 * The best lower bound seen of DynamoDB's clock minus ours (ms), per middleware stack (a client and its document
 * client share theirs); undefined before any answer.
 */
const offsets = new WeakMap<object, { ms: number | undefined }>();

function learntOffset(client: ClockSource): { ms: number | undefined } {
  let offset = offsets.get(client.middlewareStack);
  if (!offset) {
    const learnt: { ms: number | undefined } = { ms: undefined };
    offset = learnt;
    offsets.set(client.middlewareStack, learnt);
    client.middlewareStack.add(
      (next) => async (args) => {
        const output = await next(args);
        const date = (output.response as { headers?: Record<string, string> } | undefined)?.headers?.date;
        const server = date ? Date.parse(date) : Number.NaN;
        if (Number.isFinite(server)) learnt.ms = Math.max(learnt.ms ?? -Infinity, server - Date.now());
        return output;
      },
      { step: 'deserialize', name: MIDDLEWARE, priority: 'low' },
    );
  }
  return offset;
}

/** A clock (ms since 1970) never behind DynamoDB's by more than about a second: for `updated_at`. */
export function serverAlignedClock(client: ClockSource): () => number {
  const learnt = learntOffset(client);
  return () => Date.now() + Math.max(0, learnt.ms ?? 0);
}

/** A clock (ms since 1970) never ahead of DynamoDB's once it has answered: for whether a lease ran out. */
export function serverClock(client: ClockSource): () => number {
  const learnt = learntOffset(client);
  return () => Date.now() + (learnt.ms ?? 0);
}
