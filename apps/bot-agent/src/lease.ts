import { createHash } from 'node:crypto';
import {
  type BotPermission,
  LEASE_MAX_RUN_SECONDS,
  LEASE_TYPE,
  type LeaseClaims,
  leaseClaimsSchema,
  type PublicJwks,
} from '@bot/contracts';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, errors as joseErrors } from 'jose';
import type { KeyTrust } from './trust.ts';

/** Why the agent refuses a lease (each with a French message for the user). */
export type LeaseRefusal =
  | 'LEASE_MALFORMED'
  | 'LEASE_KEY_UNKNOWN'
  | 'LEASE_SIGNATURE_INVALID'
  | 'LEASE_OTHER_PC'
  | 'LEASE_EXPIRED'
  | 'LEASE_CLOCK_MOVED_BACK'
  | 'LEASE_KEY_SET_EXPIRED';

const MESSAGES: Record<LeaseRefusal, string> = {
  LEASE_MALFORMED: 'Bail de licence illisible.',
  LEASE_KEY_UNKNOWN: 'Bail signé par une clé inconnue ou révoquée.',
  LEASE_SIGNATURE_INVALID: 'Signature du bail invalide.',
  LEASE_OTHER_PC: 'Ce bail a été délivré pour un autre PC.',
  LEASE_EXPIRED: 'Le bail de licence a expiré (délai de grâce compris) : reconnectez le bot à la plateforme.',
  LEASE_CLOCK_MOVED_BACK: "L'horloge de ce PC a reculé : le bail ne peut pas être prolongé.",
  LEASE_KEY_SET_EXPIRED:
    'Le jeu de clés de la plateforme a expiré : reconnectez le bot à la plateforme pour en obtenir un nouveau.',
};

export class LeaseError extends Error {
  constructor(readonly code: LeaseRefusal) {
    super(MESSAGES[code]);
  }
}

/** A lease the agent verified: its claims, its key, and whether it runs on its grace period. */
export interface VerifiedLease {
  token: string;
  kid: string;
  claims: LeaseClaims;
  expiresAt: Date;
  /** The instant the agent stops without a renewal: expiry plus grace. */
  stopsAt: Date;
  /** Past its expiry, within its grace. */
  inGrace: boolean;
}

export interface LeaseVerifierOptions {
  /** The hwid of this PC (compared with the lease's hash). */
  hwid: string;
  /**
   * The hwid the platform bound this PC as, when its components made it the bound PC under another
   * one (decision 906); default `hwid`. A lease of another bound hwid is accepted only when it names
   * this PC's own hwid too (`agentHwid`): an unsigned answer cannot make a PC take another's lease.
   */
  boundHwid?: string;
  /**
   * Keys the caller already trusts (pinned), used as they are. An agent passes `trust` instead: the
   * keys a set signed by its root names (decision 912).
   */
  keys?: PublicJwks;
  /** The agent's root of trust: its lease keys, and a fresh signed set when a kid is unknown. */
  trust?: KeyTrust;
  /** The clock (tests move it). */
  now?: () => number;
  /** The latest time this agent saw (stored by the agent between runs): a clock behind it is refused. */
  lastSeenAt?: number;
  /** Told each time the latest seen time moves forward (to store it). */
  onLastSeen?: (at: number) => void;
}

/** How far the clock may step back (NTP corrections) before the agent calls it moved back. */
const CLOCK_TOLERANCE_MS = 5 * 60_000;

export const hwidHash = (hwid: string): string => createHash('sha256').update(hwid, 'utf8').digest('hex');

/**
 * Verifies leases offline against the lease keys it trusts (docs/licensing.md): signature, key,
 * type, hwid, expiry plus grace, and a clock that never moves back past the latest time it saw.
 */
export class LeaseVerifier {
  private lastSeenAt: number;
  private readonly now: () => number;

  constructor(private readonly options: LeaseVerifierOptions) {
    this.now = options.now ?? Date.now;
    this.lastSeenAt = options.lastSeenAt ?? 0;
  }

  /** Fetches the platform's signed key set and revocations (online); what the root did not sign is refused. */
  async refreshKeys(): Promise<void> {
    if (!this.options.trust) throw new Error('no root of trust to refresh the keys with');
    await this.options.trust.refresh();
  }

  /** True while a trusted lease key has this kid (false once revoked, expired or never signed in). */
  async knows(kid: string): Promise<boolean> {
    return (await this.leaseKeys()).keys.some((key) => key.kid === kid);
  }

  /**
   * Verifies a lease; with a root of trust, a kid it does not know (or a set past its expiry) fetches
   * the signed set first, accepted only when the root signed it (decision 912).
   */
  async verify(token: string): Promise<VerifiedLease> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw new LeaseError('LEASE_MALFORMED');
    }
    if (!kid) throw new LeaseError('LEASE_MALFORMED');
    const { trust } = this.options;
    if (trust && !(await this.knows(kid))) await trust.refresh().catch(() => undefined);
    if (!(await this.knows(kid)))
      throw new LeaseError(
        trust && (await trust.isExpired()) ? 'LEASE_KEY_SET_EXPIRED' : 'LEASE_KEY_UNKNOWN',
      );
    return this.verifyOffline(token, kid);
  }

  /** Lease keys only: a release manifest's key never vouches for a lease (decision 910). */
  private async leaseKeys(): Promise<PublicJwks> {
    if (this.options.trust) return this.options.trust.keysFor('lease');
    const pinned = this.options.keys ?? { keys: [] };
    return { keys: pinned.keys.filter((key) => (key.purpose ?? 'lease') === 'lease') };
  }

  /** Verifies with the keys at hand only (never the network). */
  async verifyOffline(token: string, kid = decodeProtectedHeader(token).kid ?? ''): Promise<VerifiedLease> {
    let payload: Uint8Array;
    // Past its key set's expiry an agent trusts no key until its platform gives it a new set.
    if (this.options.trust && (await this.options.trust.isExpired()))
      throw new LeaseError('LEASE_KEY_SET_EXPIRED');
    try {
      const leaseKeys = await this.leaseKeys();
      const verified = await compactVerify(token, createLocalJWKSet(leaseKeys), { algorithms: ['EdDSA'] });
      if (verified.protectedHeader.typ !== LEASE_TYPE) throw new LeaseError('LEASE_MALFORMED');
      payload = verified.payload;
    } catch (error) {
      if (error instanceof LeaseError) throw error;
      if (error instanceof joseErrors.JWKSNoMatchingKey) throw new LeaseError('LEASE_KEY_UNKNOWN');
      if (error instanceof joseErrors.JWSSignatureVerificationFailed)
        throw new LeaseError('LEASE_SIGNATURE_INVALID');
      throw new LeaseError('LEASE_MALFORMED');
    }
    const parsed = leaseClaimsSchema.safeParse(safeJson(payload));
    if (!parsed.success) throw new LeaseError('LEASE_MALFORMED');
    const claims = parsed.data;
    const own = hwidHash(this.options.hwid);
    const bound = hwidHash(this.options.boundHwid ?? this.options.hwid);
    if (claims.hwid !== bound || (bound !== own && claims.agentHwid !== own))
      throw new LeaseError('LEASE_OTHER_PC');
    const now = this.now();
    // The latest time seen includes the issue time of every lease verified: a clock set back
    // before it (to stretch an old lease) is refused.
    if (now < Math.max(this.lastSeenAt, claims.iat * 1000) - CLOCK_TOLERANCE_MS)
      throw new LeaseError('LEASE_CLOCK_MOVED_BACK');
    // Never past the latest end of what it entitles, its key's and its key set's expiry, or the
    // longest run the platform can sign after its issue, whatever the lease says (docs/licensing.md).
    const keyExpiry = (await this.options.trust?.expiryOf(kid)) ?? Infinity;
    const stopsAt = Math.min(
      claims.exp * 1000 + claims.grace * 1000,
      latestEntitlementEnd(claims),
      keyExpiry,
      (claims.iat + LEASE_MAX_RUN_SECONDS) * 1000,
    );
    const expiresAt = Math.min(claims.exp * 1000, stopsAt);
    if (now >= stopsAt) throw new LeaseError('LEASE_EXPIRED');
    this.see(Math.max(now, claims.iat * 1000));
    return {
      token,
      kid,
      claims,
      expiresAt: new Date(expiresAt),
      stopsAt: new Date(stopsAt),
      inGrace: now >= expiresAt,
    };
  }

  private see(at: number): void {
    if (at <= this.lastSeenAt) return;
    this.lastSeenAt = at;
    this.options.onLastSeen?.(at);
  }
}

/** The latest end of the lease's entitlements; infinite when one of them has none (or none is told). */
function latestEntitlementEnd(claims: LeaseClaims): number {
  const ends = claims.entitlements.map((name) => claims.entitlementEnds?.[name]);
  if (ends.length === 0 || ends.some((end) => end === null || end === undefined)) return Infinity;
  return Math.max(...ends.map((end) => Date.parse(end as string)));
}

/**
 * The entitlements a lease still gives at `now`: each stops at its own end (a package that ended
 * stops its activity while another one runs on). Leases of older platforms tell no ends: all of them.
 */
export function entitlementsAt(lease: Pick<VerifiedLease, 'claims'>, now: number): BotPermission[] {
  const ends = lease.claims.entitlementEnds;
  return lease.claims.entitlements.filter((name) => {
    const end = ends?.[name];
    return end === undefined || end === null || Date.parse(end) > now;
  });
}

function safeJson(payload: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(payload));
  } catch {
    return undefined;
  }
}
