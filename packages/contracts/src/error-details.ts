import { permissionLabel } from './permissions.ts';

/**
 * What the entries of the error table (`errors.ts`) quote: the `details` an answer carries, typed
 * by its entry, and how a message words them (docs/decisions/012-one-error-table.md).
 */

/** One refused field or query parameter of a 400 (`details` of VALIDATION_ERROR). */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** An entry whose answer carries `details` of type `D`, which its French message may quote. */
export const detailed = <D>(status: number, message: (details: D) => string) => ({ status, message });

/** An instant of a refusal as the customer reads it: Paris time, to the minute. */
export const parisTime = (iso: string): string =>
  new Date(iso).toLocaleString('fr-FR', { timeZone: 'Europe/Paris', dateStyle: 'short', timeStyle: 'short' });

/** Permissions named by their French labels, never their codes (those stay in `details`). */
export const permissionLabels = (names: readonly string[]): string => names.map(permissionLabel).join(', ');
