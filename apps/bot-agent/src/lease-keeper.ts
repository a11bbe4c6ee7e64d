import { LeaseError, type LeaseVerifier, type VerifiedLease } from './lease.ts';

/** A refusal that stops the agent, with its code (the client's `BotApiError`). */
interface StopError extends Error {
  code: string;
}

export interface LeaseKeeperOptions {
  verifier: LeaseVerifier;
  now: () => number;
  /** Asks the platform for a fresh lease (the signed token). */
  renew: () => Promise<string>;
  /** A refusal of the platform after which renewing cannot help. */
  isFatal: (error: unknown) => boolean;
  onExpiring: (lease: VerifiedLease) => void;
  onRevoked: (error: StopError) => void;
  /** Stops the agent. */
  onStop: (error: StopError) => void;
  /** The error a refused lease is reported as (the client's `BotApiError`). */
  stopError: (message: string, code: string) => StopError;
}

/** How often a renewal is retried while the platform is unreachable. */
const RETRY_MS = 60_000;

/**
 * Holds the agent's lease: verifies each one before it is used, renews at 80 % of its lifetime,
 * and while the platform is unreachable keeps running on it (warning `leaseExpiring`) until its
 * expiry plus grace, then stops the agent with a clear message.
 */
export class LeaseKeeper {
  private lease: VerifiedLease | null = null;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: LeaseKeeperOptions) {}

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
    this.lease = verified;
    this.schedule(this.renewDelay(verified));
    return verified;
  }

  async renew(): Promise<VerifiedLease> {
    return this.accept(await this.options.renew());
  }

  /** Checks the lease held against the keys and the clock, offline; a failure stops the agent. */
  async check(): Promise<VerifiedLease> {
    if (!this.lease) throw new Error('no lease');
    try {
      return await this.options.verifier.verifyOffline(this.lease.token, this.lease.kid);
    } catch (error) {
      const refusal = error instanceof LeaseError ? error : new LeaseError('LEASE_MALFORMED');
      const stop = this.options.stopError(refusal.message, refusal.code);
      if (refusal.code === 'LEASE_KEY_UNKNOWN') this.options.onRevoked(stop);
      this.stop();
      this.options.onStop(stop);
      throw stop;
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private renewDelay(lease: VerifiedLease): number {
    const issuedAt = lease.claims.iat * 1000;
    const renewAt = issuedAt + (lease.expiresAt.getTime() - issuedAt) * 0.8;
    return Math.min(renewAt, lease.stopsAt.getTime()) - this.options.now();
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.keep(), Math.max(0, Math.min(delay, 2 ** 31 - 1)));
    this.timer.unref();
  }

  private async keep(): Promise<void> {
    if (this.stopped || !this.lease) return;
    try {
      await this.renew();
    } catch (error) {
      if (this.options.isFatal(error)) {
        const stop = error as StopError;
        if (!stop.code.startsWith('LEASE_')) this.options.onRevoked(stop);
        this.stop();
        this.options.onStop(stop);
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
