/** The agent's errors, and which of them end it. */
import { LEASE_REVOKING_CODES } from '@bot/contracts';

/** Errors after which reconnecting cannot help: the agent stops and reports `fatal`. */
export const FATAL_CODES = new Set([
  'BOT_REPLACED',
  'BOT_KICKED',
  'BOT_KEY_INVALID',
  'BOT_PERMISSION_REQUIRED',
  'BOT_VERSION_OUTDATED',
  'ACCOUNT_BANNED',
  'ACCOUNT_NOT_ACTIVATED',
  'HWID_MISMATCH',
  'HWID_TAKEN',
  'HWID_RELEASED',
  'HWID_CHANGE_LIMIT',
  'LEASE_MALFORMED',
  'LEASE_KEY_UNKNOWN',
  'LEASE_SIGNATURE_INVALID',
  'LEASE_OTHER_PC',
  'LEASE_EXPIRED',
  'LEASE_CLOCK_MOVED_BACK',
  'LEASE_KEY_SET_EXPIRED',
]);
/** Refusals that end the licence: the lease held is revoked too (`leaseRevoked`). */
export const REVOKING_CODES: ReadonlySet<string> = new Set(LEASE_REVOKING_CODES);

/** An error answered by the server (`{error, code}`). */
export class BotApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
  }
}
