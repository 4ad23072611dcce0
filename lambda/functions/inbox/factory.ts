/**
 * The inbox function's handler (docs/operating.md#the-inbox), made from what it works with: each object of an S3
 * event, in turn, through `handleInboxKey`; the invocation fails when a file could not be imported — failed, left in
 * `incoming/`, or every record of it rejected — so that the function's `Errors`, which the `ImportFailing` alarm
 * watches, count it. The entry point (`handler.ts`) only makes what it works with.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { S3Client } from '@aws-sdk/client-s3';
import middy from '@middy/core';
import type { S3Event } from 'aws-lambda';
import { InboxFileFailedError } from './errors';
import { handleInboxKey, type InboxContext, type InboxOutcome } from './inbox';
import { inboxLogLine } from './report';
import { eventKey, s3Objects } from './s3-objects';

/** The logger's two calls the receiver makes. */
export interface InboxLogger {
  info(message: string, fields: Record<string, unknown>): void;
}

/** What the receiver works with: the inbox's context but for the objects, the time and the log, which it makes. */
export type ReceiverContext = Omit<InboxContext, 'objects' | 'remainingMs' | 'log'> & {
  readonly s3: S3Client;
  readonly logger: InboxLogger;
};

/** Handles each object of an S3 event in turn: see the module's comment. */
export function s3EventReceiver(receiver: ReceiverContext) {
  const { s3, logger, ...context } = receiver;
  return async (
    event: S3Event,
    invocation: { getRemainingTimeInMillis(): number },
  ): Promise<InboxOutcome[]> => {
    const outcomes: InboxOutcome[] = [];
    for (const record of event.Records ?? []) {
      const key = eventKey(record.s3.object.key);
      const outcome = await handleInboxKey(
        {
          ...context,
          objects: s3Objects(s3, record.s3.bucket.name, record.s3.object.sequencer),
          remainingMs: () => invocation.getRemainingTimeInMillis(),
          log: (report) => logger.info('Inbox file', { ...inboxLogLine(report) }),
        },
        key,
      );
      if ('ignored' in outcome) logger.info('Inbox key ignored', { key, why: outcome.ignored });
      if ('gone' in outcome) logger.info('Inbox file already handled', { key });
      outcomes.push(outcome);
    }
    // Not imported: failed, left for another run, or every record rejected (in done/, but nothing of it served).
    const failed = outcomes.filter(
      (outcome) =>
        'unfinished' in outcome ||
        ('handled' in outcome &&
          (outcome.handled.outcome === 'failed' || outcome.handled.outcome === 'rejected')),
    );
    if (failed.length > 0) throw new InboxFileFailedError(`${failed.length} inbox file(s) not imported`);
    return outcomes;
  };
}

/** The inbox function's handler: `s3EventReceiver` with the logger's context for each invocation. */
export function createInboxHandler(receiver: ReceiverContext & { readonly logger: Logger }) {
  return middy(s3EventReceiver(receiver)).use(
    injectLambdaContext(receiver.logger, { logEvent: false, resetKeys: true }),
  );
}
