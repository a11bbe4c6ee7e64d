import { ERRORS, type ErrorCode } from './errors.ts';

/** The `details` an answer with this code carries (`undefined`: none), typed by its table entry. */
export type ErrorDetails<C extends ErrorCode> = C extends ErrorCode
  ? (typeof ERRORS)[C]['message'] extends (details: infer D) => string
    ? D
    : undefined
  : never;

/** The details argument that goes with a code: required when its message quotes them. */
export type ErrorDetailsArgs<C extends ErrorCode> =
  undefined extends ErrorDetails<C> ? [details?: ErrorDetails<C>] : [details: ErrorDetails<C>];

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERRORS, code);

/**
 * The French message of a code, quoting its details where the table says: the one way a message is
 * worded, on the server and in the web app alike (docs/decisions/012-one-error-table.md).
 */
export function errorMessage<C extends ErrorCode>(code: C, ...[details]: ErrorDetailsArgs<C>): string {
  const { message } = ERRORS[code] as {
    message: string | ((details: ErrorDetails<C> | undefined) => string);
  };
  return typeof message === 'function' ? message(details) : message;
}
