import type { MessageRefusal } from './answers.ts';
import type { BotApiError } from './errors.ts';
import type { VerifiedLease } from './lease.ts';
import type { VerifiedUpdate } from './updates.ts';

/** What a `BotClient` tells its listeners (`client.on`). */
export interface BotClientEvents {
  authenticated: [];
  /** An authenticated connection was lost (paired with the `authenticated` before it). */
  disconnected: [reason: string];
  /** The server closed the connection for good (replaced, kicked, banned...); the agent stopped. */
  fatal: [error: BotApiError];
  /**
   * A build to install, its manifest verified (told when a session opens, and at once over the
   * socket when the running build was withdrawn: `rollback`). A refused one is an `error` (`UpdateError`).
   */
  updateAvailable: [update: VerifiedUpdate];
  /** A fresh lease replaced the one held (`client.lease` is the new one). */
  leaseRenewed: [lease: VerifiedLease];
  /** The lease runs out soon (or runs on its grace) and could not be renewed yet. */
  leaseExpiring: [lease: VerifiedLease];
  /**
   * The lease no longer holds (banned, no package left, version too old, its key revoked and no
   * fresh one to be had, the platform refused to renew it): the agent stops. Online, the platform
   * says so at once over the socket (`lease_revoked`).
   */
  leaseRevoked: [error: BotApiError];
  /**
   * The server refused a message the agent sent (a report, a command's acknowledgement or result,
   * log lines), naming what (decision 923): a defect of the agent to fix, never a reason to stop.
   */
  refused: [refusal: MessageRefusal];
  error: [error: Error];
}
