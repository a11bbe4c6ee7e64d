import { ERRORS, type ErrorCode, type ErrorDetails, errorMessage } from '@bot/contracts';

/** What a throw adds to its code: the details its table entry quotes (typed), a Retry-After. */
export type AppErrorOptions<C extends ErrorCode> = {
  retryAfter?: number;
} & (undefined extends ErrorDetails<C> ? { details?: ErrorDetails<C> } : { details: ErrorDetails<C> });

/**
 * The one error type services throw: a code of the contracts' table, which gives its status and
 * its French message. It takes no message of its own, so no call site can word one (decision 012).
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly status: number;
  readonly details: ErrorDetails<C>;
  /** Seconds, for 429 answers (sent as Retry-After). */
  readonly retryAfter: number | undefined;

  constructor(
    code: C,
    ...[options]: undefined extends ErrorDetails<C>
      ? [options?: AppErrorOptions<C>]
      : [options: AppErrorOptions<C>]
  ) {
    const details = options?.details as ErrorDetails<C>;
    super(errorMessage<ErrorCode>(code, details));
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = details;
    this.retryAfter = options?.retryAfter;
  }
}

/** Is this an `AppError` (of this code, when one is given: its details are then typed)? */
export function isAppError<C extends ErrorCode = ErrorCode>(error: unknown, code?: C): error is AppError<C> {
  return error instanceof AppError && (code === undefined || error.code === code);
}
