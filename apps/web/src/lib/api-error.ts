/** An error answer of our API (`{error, code}`), or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The form field the refusal concerns, when the server names one (`details.field`). */
  readonly field: string | undefined;

  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
