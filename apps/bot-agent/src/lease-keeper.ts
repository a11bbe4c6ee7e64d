import { BotApiError } from './errors.ts';
import { LeaseError, type LeaseVerifier, type VerifiedLease } from './lease.ts';

/** A refusal that stops the agent, with its code (the client's `BotApiError`). */
interface StopError extends Error {
  code: string;
}

/** Runs `task` once after `delayMs` and answers how to cancel it (tests drive it with their clock). */
export type SetTimer = (task: () => void, delayMs: number) => () => void;

/** The real timer (never keeps the process alive by itself). */
export const realTimer: SetTimer = (task, delayMs) => {
  const timer = setTimeout(task, Math.max(0, Math.min(delayMs, 2 ** 31 - 1)));
  timer.unref();
  return () => clearTimeout(timer);
};

export interface LeaseKeeperOptions {
  verifier: LeaseVerifier;
  now: () => number;
  /** The timer renewals wait on (default: the real one). */
  setTimer?: SetTimer;
  /** Asks the platform for a fresh lease (the signed token). */
  renew: () => Promise<string>;
  /** A refusal of the platform after which renewing cannot help. */
  isFatal: (error: unknown) => boolean;
  /** A lease replaced the one held (renewed ahead of expiry, or after its key was revoked). */
  onRenewed: (lease: VerifiedLease) => void;
  onExpiring: (lease: VerifiedLease) => void;
  onRevoked: (error: StopError) => void;
  /** A first lease could not be fetched yet (the platform busy or unreachable): tried again later. */
  onError: (error: Error) => void;
  /** Stops the agent. */
  onStop: (error: StopError) => void;
  /** The error a refused lease is reported as (the client's `BotApiError`). */
  stopError: (message: string, code: string) => StopError;
}

/** How often a renewal is retried while the platform is unreachable; also the shortest wait between two. */
const RETRY_MS = 60_000;

/**
 * Holds the agent's lease: verifies each one before it is used, renews at 80 % of its lifetime,
 * and while the platform is unreachable keeps running on it (warning `leaseExpiring`) until its
 * expiry plus grace, then stops the agent with a clear message.
 */
export class LeaseKeeper {
  private lease: VerifiedLease | null = null;
  private cancel: (() => void) | undefined;
  private stopped = false;
  private readonly setTimer: SetTimer;

  constructor(private readonly options: LeaseKeeperOptions) {
    this.setTimer = options.setTimer ?? realTimer;
  }

  get current(): VerifiedLease | null {
    return this.lease;
  }

  /** Verifies a lease and runs on it; a refused one throws (the caller stops). */
  async accept(token: string): Promise<VerifiedLease> {
    let verified: VerifiedLease;
    try {
      verified = await this.options.verifier.verify(token);
    } catch (error) {
      throw error instanceof LeaseError ? this.options.stopError(error.message, error.code) : error;
    }
    const previous = this.lease;
    this.lease = verified;
    // Never sooner than a retry: a PC clock far ahead of the platform's would otherwise see every
    // fresh lease already due for renewal and ask for one in a loop.
    const stopsIn = verified.stopsAt.getTime() - this.options.now();
    this.schedule(Math.max(this.renewDelay(verified), Math.min(RETRY_MS, stopsIn)));
    if (previous) this.options.onRenewed(verified);
    return verified;
  }

  async renew(): Promise<VerifiedLease> {
    return this.accept(await this.options.renew());
  }

  /**
   * A session opened earlier (the agent restarted with it) comes without a lease: fetch one now. A
   * refusal that renewing cannot change throws; otherwise it is tried again every minute.
   */
  async obtain(): Promise<void> {
    try {
      await this.renew();
    } catch (error) {
      if (this.options.isFatal(error)) throw error;
      this.options.onError(error as Error);
      this.schedule(RETRY_MS);
    }
  }

  /** Checks the lease held against the keys and the clock, offline; a failure stops the agent. */
  async check(): Promise<VerifiedLease> {
    if (!this.lease) throw new Error('no lease');
    try {
      return await this.options.verifier.verifyOffline(this.lease.token, this.lease.kid);
    } catch (error) {
      const refusal = error instanceof LeaseError ? error : new LeaseError('LEASE_MALFORMED');
      const stop = this.options.stopError(refusal.message, refusal.code);
      this.end(stop, refusal.code === 'LEASE_KEY_UNKNOWN');
      throw stop;
    }
  }

  /**
   * The platform revoked a signing key (told over the socket with a signed statement, which the
   * root of trust applied: the key is dropped); a lease it signed is replaced by a fresh one. A refusal for good stops the agent; a passing one
   * (the platform busy with every agent renewing at once, the network) is retried like any renewal,
   * while the lease it holds can no longer be verified offline: the platform gone, the agent stops.
   */
  async keyRevoked(kid: string, stop: StopError): Promise<void> {
    if (this.stopped || this.lease?.kid !== kid) return;
    try {
      await this.renew();
    } catch (error) {
      if (this.stopped) return;
      if (this.options.isFatal(error)) return this.end(stop, true);
      this.options.onError(error as Error);
      this.schedule(RETRY_MS);
    }
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
  }

  private end(stop: StopError, revoked: boolean): void {
    if (revoked) this.options.onRevoked(stop);
    this.stop();
    this.options.onStop(stop);
  }

  private renewDelay(lease: VerifiedLease): number {
    const issuedAt = lease.claims.iat * 1000;
    const renewAt = issuedAt + (lease.expiresAt.getTime() - issuedAt) * 0.8;
    return Math.min(renewAt, lease.stopsAt.getTime()) - this.options.now();
  }

  private schedule(delay: number): void {
    this.cancel?.();
    if (this.stopped) return;
    this.cancel = this.setTimer(() => void this.keep(), Math.max(0, delay));
  }

  private async keep(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.renew();
    } catch (error) {
      if (this.options.isFatal(error)) {
        const stop = error as StopError;
        this.end(stop, !stop.code.startsWith('LEASE_'));
        return;
      }
      // No lease yet, or the platform answered and is only busy (429, 503): ask again later.
      if (!this.lease || isAnswerFromPlatform(error)) {
        this.options.onError(error as Error);
        this.schedule(RETRY_MS);
        return;
      }
      // Unreachable platform: keep running on the lease held while it (and its grace) lasts.
      const held = await this.check().catch(() => undefined);
      if (!held) return;
      this.options.onExpiring(held);
      this.schedule(Math.min(RETRY_MS, held.stopsAt.getTime() - this.options.now()));
    }
  }
}

/** An error the platform answered (it is reachable), as opposed to a network failure. */
function isAnswerFromPlatform(error: unknown): boolean {
  return error instanceof BotApiError && error.status > 0;
}
