/** The ops CLI's own errors: what the operator can fix, said in one line, never with a stack trace. */

/** A mistake of the user (an unknown vendor, a missing table, …): its message, and exit code 1. */
export class UserError extends Error {
  override readonly name: string = 'UserError';
  /** The process's exit code when this ends a command. */
  readonly exitCode: number = 1;

  constructor(
    message: string,
    /** One more line on what to do, when the message alone does not say it. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** A command that was not given as it must be (a missing or malformed option): exit code 2, as for usage errors. */
export class UsageError extends UserError {
  override readonly name = 'UsageError';
  override readonly exitCode = 2;
}
