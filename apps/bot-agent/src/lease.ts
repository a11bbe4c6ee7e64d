import { createHash } from 'node:crypto';
import {
  type BotPermission,
  JWKS_PATH,
  LEASE_TYPE,
  type LeaseClaims,
  leaseClaimsSchema,
  type PublicJwks,
} from '@bot/contracts';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, errors as joseErrors } from 'jose';

/** Why the agent refuses a lease (each with a French message for the user). */
export type LeaseRefusal =
  | 'LEASE_MALFORMED'
  | 'LEASE_KEY_UNKNOWN'
  | 'LEASE_SIGNATURE_INVALID'
  | 'LEASE_OTHER_PC'
  | 'LEASE_EXPIRED'
  | 'LEASE_CLOCK_MOVED_BACK';

const MESSAGES: Record<LeaseRefusal, string> = {
  LEASE_MALFORMED: 'Bail de licence illisible.',
  LEASE_KEY_UNKNOWN: 'Bail signé par une clé inconnue ou révoquée.',
  LEASE_SIGNATURE_INVALID: 'Signature du bail invalide.',
  LEASE_OTHER_PC: 'Ce bail a été délivré pour un autre PC.',
  LEASE_EXPIRED: 'Le bail de licence a expiré (délai de grâce compris) : reconnectez le bot à la plateforme.',
  LEASE_CLOCK_MOVED_BACK: "L'horloge de ce PC a reculé : le bail ne peut pas être prolongé.",
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
  /** The public key set the agent ships with (the platform's `/.well-known/jwks.json`). */
  keys?: PublicJwks;
  /** The server, to refresh the set when online (a kid it does not know). */
  serverUrl?: string;
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
 * Verifies leases offline against a public key set (docs/licensing.md): signature, key, type, hwid,
 * expiry plus grace, and a clock that never moves back past the latest time it saw.
 */
export class LeaseVerifier {
  private keys: PublicJwks;
  private lastSeenAt: number;
  private readonly now: () => number;

  constructor(private readonly options: LeaseVerifierOptions) {
    this.keys = options.keys ?? { keys: [] };
    this.now = options.now ?? Date.now;
    this.lastSeenAt = options.lastSeenAt ?? 0;
  }

  /** The key set in use (the agent may store it for its next offline start). */
  get keySet(): PublicJwks {
    return this.keys;
  }

  /** Fetches the platform's key set (online). Keys absent from it (revoked) are refused from now on. */
  async refreshKeys(): Promise<PublicJwks> {
    if (!this.options.serverUrl) throw new Error('serverUrl is needed to refresh the keys');
    const response = await fetch(`${this.options.serverUrl.replace(/\/+$/, '')}${JWKS_PATH}`, {
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`JWKS: HTTP ${response.status}`);
    this.keys = (await response.json()) as PublicJwks;
    return this.keys;
  }

  /** Drops a key the platform said it revoked: nothing it signed verifies here any more. */
  forget(kid: string): void {
    this.keys = { keys: this.keys.keys.filter((key) => key.kid !== kid) };
  }

  /** True while the set holds this kid (false once a refresh dropped it: revoked). */
  knows(kid: string): boolean {
    return this.keys.keys.some((key) => key.kid === kid);
  }

  /** Verifies a lease; an unknown kid refreshes the set first when a server is known and reachable. */
  async verify(token: string): Promise<VerifiedLease> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw new LeaseError('LEASE_MALFORMED');
    }
    if (!kid) throw new LeaseError('LEASE_MALFORMED');
    if (!this.knows(kid) && this.options.serverUrl) await this.refreshKeys().catch(() => undefined);
    if (!this.knows(kid)) throw new LeaseError('LEASE_KEY_UNKNOWN');
    return this.verifyOffline(token, kid);
  }

  /** Verifies with the keys at hand only (never the network). */
  async verifyOffline(token: string, kid = decodeProtectedHeader(token).kid ?? ''): Promise<VerifiedLease> {
    let payload: Uint8Array;
    try {
      // Lease keys only: a release manifest's key never vouches for a lease (decision 910).
      const leaseKeys = { keys: this.keys.keys.filter((key) => (key.purpose ?? 'lease') === 'lease') };
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
    if (claims.hwid !== hwidHash(this.options.hwid)) throw new LeaseError('LEASE_OTHER_PC');
    const now = this.now();
    // The latest time seen includes the issue time of every lease verified: a clock set back
    // before it (to stretch an old lease) is refused.
    if (now < Math.max(this.lastSeenAt, claims.iat * 1000) - CLOCK_TOLERANCE_MS)
      throw new LeaseError('LEASE_CLOCK_MOVED_BACK');
    const expiresAt = claims.exp * 1000;
    // Never past the latest end of what it entitles, whatever the platform signed (docs/licensing.md).
    const stopsAt = Math.min(expiresAt + claims.grace * 1000, latestEntitlementEnd(claims));
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
