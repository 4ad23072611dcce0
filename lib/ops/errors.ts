/**
 * The ops CLI's own errors: what the operator can fix, said in one line, never with a stack trace — and the smoke
 * check's findings, each one line of its report (docs/operating.md#smoke-check).
 */

/**
 * A mistake of the user (an unknown vendor, a missing table, a file that cannot be read, …). Thrown by the
 * operations and commands; the CLI's top level (`describeError`) prints its message, and its hint when it has one,
 * and exits with its `exitCode`, 1.
 */
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

/**
 * A command that was not given as it must be (a missing or malformed option, a target that is not named). Thrown by
 * the commands and the choice of target; printed as a `UserError` is, with exit code 2, as for usage errors.
 */
export class UsageError extends UserError {
  override readonly name = 'UsageError';
  override readonly exitCode = 2;
}

/**
 * A smoke check's finding: what it expected and what it got, in one line. Thrown by the checks (`smoke/checks.ts`),
 * the HTTP client (`smoke/http.ts`) and the run's own steps (`smoke/run.ts`); the run records the check as failed
 * with the message, goes on with the next check, and cleans up.
 */
export class CheckFailedError extends Error {
  override readonly name: string = 'CheckFailedError';
}

/**
 * Nothing answered at all: the connection was refused, the host cannot be resolved, or no answer came in time.
 * Thrown by the smoke check's HTTP client; the run records the check as failed and skips the checks after it — they
 * would say the same — then cleans up.
 */
export class ApiUnreachableError extends CheckFailedError {
  override readonly name = 'ApiUnreachableError';
}

/**
 * The smoke check was interrupted (Ctrl-C). The run aborts the check under way with it (a setup step is let finish),
 * records that check as failed, runs no more, and still cleans up.
 */
export class ChecksInterruptedError extends CheckFailedError {
  override readonly name = 'ChecksInterruptedError';
}
