import { ERRORS, type ErrorCode } from '@bot/contracts';

/** The one error type services throw; the error handler maps its code to a status and a French message. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;
  /** Seconds, for 429 answers (sent as Retry-After). */
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, options: { message?: string; details?: unknown; retryAfter?: number } = {}) {
    super(options.message ?? ERRORS[code].message);
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
