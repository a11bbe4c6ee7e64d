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

/** Body of every error answer, HTTP or socket (`auth_error`). */
export interface ErrorBody {
  error: string;
  code: ErrorCode | string;
  details?: unknown;
}

/** docs/specification.md §7: fallback messages the web app shows when the server gave none. */
export const FALLBACK_MESSAGES = {
  login: 'Une erreur inconnue est survenue.',
  register: 'Un problème est survenu durant votre inscription.',
  activate: 'Activation échouée.',
  resend: 'Ré-envoi de confirmation échoué.',
  info: 'Impossible de get les informations',
  permissions: 'Impossible de récupérer les permissions.',
  checkPermission: 'Erreur lors de la vérification des permissions.',
} as const;
