/**
 * The inbox function's errors (docs/operating.md#the-inbox): an object whose bytes could not be read, and an
 * invocation that did not import every file it was given.
 */

/**
 * The object's bytes could not be read (S3, or the disk of a local inbox folder) — not the file's fault. Thrown
 * while the file is read (`inbox.ts`), which throws its cause on rather than refusing the file: the file stays in
 * `incoming/`, and the invocation fails, so that it is tried again.
 */
export class ObjectReadError extends Error {
  override readonly name = 'ObjectReadError';
}

/**
 * A file of the event went to `failed/`, or was left in `incoming/` unfinished. Thrown by the S3 event's receiver
 * (`factory.ts`) after every file of the event is handled and reported: the invocation fails so that the
 * function's `Errors` count it, which the `ImportFailing` alarm watches, and S3's asynchronous invocation tries the
 * event again. Its name stays `InboxFileFailed`: Lambda writes it as the `errorType` of the invocation's error in
 * the function's log.
 */
export class InboxFileFailedError extends Error {
  override readonly name = 'InboxFileFailed';
}
