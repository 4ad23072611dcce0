/**
 * What writers and recounts know of DynamoDB's clock (docs/design.md#when-a-vacancy-changed). Every answer states
 * DynamoDB's time in its `Date` header, to the second, written before the answer reached us: so `header − ours` is a
 * lower bound of how far DynamoDB's clock is ahead of this machine's, and the largest seen is the best one.
 *
 * One clock follows from it, `serverClock`, erring on the safe side of both its uses:
 * - it stamps `updated_at`: DynamoDB's clock as this machine can bound it from below — at most
 *   the second the `Date` header truncates (and an answer's transit) behind it, never ahead — whichever way this
 *   machine's runs wrong. A sync hands out the change index up to 4 to 5 seconds back: a change lands within the
 *   write window (2 s) of its stamp, so a stamp a second behind is still ahead of every snapshot handed out before
 *   it landed; one stamped minutes ahead would wait minutes for a sync, and one minutes behind would be missed — an
 *   operator's clock that is off must do neither (docs/design.md#when-a-vacancy-changed).
 * - it decides whether a writer's lease has run out. Taking a lease over early would let two writers
 *   count at once, so it never runs ahead of DynamoDB's clock, however far ahead this machine's is.
 * Before the first answer, it is this machine's clock.
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

function learntOffset(client: ClockSource, localNow: () => number): { ms: number | undefined } {
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
        if (Number.isFinite(server)) learnt.ms = Math.max(learnt.ms ?? -Infinity, server - localNow());
        return output;
      },
      { step: 'deserialize', name: MIDDLEWARE, priority: 'low' },
    );
  }
  return offset;
}

/**
 * A clock (ms since 1970) never ahead of DynamoDB's once it has answered, at most about a second behind it, whatever
 * this machine's says: for `updated_at`, and for whether a lease ran out. `localNow` is this machine's clock (tests
 * skew it).
 */
export function serverClock(client: ClockSource, localNow: () => number = Date.now): () => number {
  const learnt = learntOffset(client, localNow);
  return () => localNow() + (learnt.ms ?? 0);
}
