import {
  KEY_REVOCATION_TYPE,
  KEY_SET_PATH,
  KEY_SET_TYPE,
  type KeySetAnswer,
  type KeySetClaims,
  keyRevocationClaimsSchema,
  keySetAnswer,
  keySetClaimsSchema,
  type PublicJwks,
  type SigningKeyPurpose,
  trustRootSchema,
} from '@bot/contracts';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, importJWK, type JWK } from 'jose';

/** Why a key set or a revocation statement was refused (the agent keeps what it held). */
export type TrustRefusal =
  | 'KEY_SET_UNSIGNED'
  | 'KEY_SET_INVALID'
  | 'KEY_SET_ROLLBACK'
  | 'KEY_SET_EXPIRED'
  | 'KEY_SET_UNREACHABLE'
  | 'REVOCATION_INVALID';

const MESSAGES: Record<TrustRefusal, string> = {
  KEY_SET_UNSIGNED: 'Jeu de clés refusé : il n’est pas signé par la clé racine de l’éditeur.',
  KEY_SET_INVALID: 'Jeu de clés refusé : illisible.',
  KEY_SET_ROLLBACK: 'Jeu de clés refusé : plus ancien que celui que ce bot connaît déjà.',
  KEY_SET_EXPIRED: 'Jeu de clés refusé : il a expiré.',
  KEY_SET_UNREACHABLE: 'Jeu de clés injoignable : la plateforme ne répond pas.',
  REVOCATION_INVALID: 'Révocation ignorée : elle n’est pas signée par une clé du jeu en service.',
};

export class TrustError extends Error {
  constructor(readonly code: TrustRefusal) {
    super(MESSAGES[code]);
    this.name = 'TrustError';
  }
}

export interface KeyTrustOptions {
  /** The vendor's root public key (an Ed25519 JWK), built into the agent: no default. */
  trustRoot: JWK;
  /**
   * What `onKeySet` last gave (the signed set and the signed revocations the agent verified), or a
   * bare signed set stored by an older agent: spares a fetch at an offline start, and no replay of
   * that set can bring back a key it was told was revoked.
   */
  keySet?: string;
  /** Told each time what the agent trusts changes (a newer set, a revocation): store it as it is. */
  onKeySet?: (stored: string) => void;
  /** The platform, where the signed key set is fetched (never its JWKS). */
  serverUrl?: string;
  now: () => number;
}

interface HeldSet {
  token: string;
  claims: KeySetClaims;
}

interface HeldRevocation {
  statement: string;
  revokedAt: number;
}

/**
 * The agent's root of trust (docs/licensing.md, decision 912): it trusts a lease or release key only
 * when a key set signed by the pinned root names it, for its purpose, unexpired. A newer set is taken
 * only with a higher version; an older, expired or unsigned one is refused, whoever serves it. A key
 * is dropped on a revocation statement signed by a key of the set: a forged one is ignored. The
 * revocations it verified are kept with the set it stores (`onKeySet`), as TUF keeps its metadata: a
 * restarted agent does not trust again a key it was told was revoked, whatever a fake platform omits.
 */
export class KeyTrust {
  private held: HeldSet | null = null;
  /** The revocations verified, by revoked kid, in the order they were verified (each its statement). */
  private readonly revocations = new Map<string, HeldRevocation>();
  private readonly root: ReturnType<typeof importJWK>;
  private loaded: Promise<void>;

  constructor(private readonly options: KeyTrustOptions) {
    if (!trustRootSchema.safeParse(options.trustRoot).success)
      throw new Error(
        'createBotClient : l’option trustRoot est obligatoire (la clé publique racine Ed25519 de l’éditeur, au format JWK, intégrée à l’agent : docs/licensing.md).',
      );
    const { kty, crv, x } = options.trustRoot;
    this.root = importJWK({ kty, crv, x }, 'EdDSA');
    this.loaded = options.keySet ? this.restore(options.keySet) : Promise.resolve();
  }

  /**
   * What the agent stored: a stored set that no longer verifies (another root, expired) is simply not
   * held; its revocations verify again, in the order they were first verified.
   */
  private async restore(stored: string): Promise<void> {
    const { keySet, revocations } = parseStored(stored);
    const adopted = await this.adopt(keySet, false).then(
      () => true,
      () => false,
    );
    if (!adopted) return;
    for (const statement of revocations) await this.applyRevocation(statement).catch(noop);
  }

  /** What to store between runs (`keySet`): the signed set and the signed revocations verified. */
  get stored(): string | undefined {
    if (!this.held) return undefined;
    const answer: KeySetAnswer = {
      keySet: this.held.token,
      revocations: [...this.revocations.values()].map((revocation) => revocation.statement),
    };
    return JSON.stringify(answer);
  }

  private tell(): void {
    const stored = this.stored;
    if (stored) this.options.onKeySet?.(stored);
  }

  /** The version of the set held (0: none yet). */
  get version(): number {
    return this.held?.claims.version ?? 0;
  }

  /** The signed set held, to store between runs. */
  get keySet(): string | undefined {
    return this.held?.token;
  }

  /** True while a set is held and unexpired. */
  async isCurrent(): Promise<boolean> {
    await this.loaded;
    return this.held !== null && this.held.claims.expiresAt * 1000 > this.options.now();
  }

  /** True when a set is held but past its expiry (the agent must reach its platform for a new one). */
  async isExpired(): Promise<boolean> {
    await this.loaded;
    return this.held !== null && this.held.claims.expiresAt * 1000 <= this.options.now();
  }

  /** Accepts a signed key set: the root's signature, a higher version (or the same set), unexpired. */
  async accept(token: string): Promise<KeySetClaims> {
    await this.loaded;
    return this.adopt(token, true);
  }

  private async adopt(token: string, tell: boolean): Promise<KeySetClaims> {
    let payload: Uint8Array;
    try {
      const verified = await compactVerify(token, await this.root, { algorithms: ['EdDSA'] });
      if (verified.protectedHeader.typ !== KEY_SET_TYPE) throw new TrustError('KEY_SET_INVALID');
      payload = verified.payload;
    } catch (error) {
      throw error instanceof TrustError ? error : new TrustError('KEY_SET_UNSIGNED');
    }
    const parsed = keySetClaimsSchema.safeParse(safeJson(payload));
    if (!parsed.success) throw new TrustError('KEY_SET_INVALID');
    const claims = parsed.data;
    if (claims.expiresAt * 1000 <= this.options.now()) throw new TrustError('KEY_SET_EXPIRED');
    if (this.held && claims.version <= this.held.claims.version) {
      if (token === this.held.token) return claims;
      throw new TrustError('KEY_SET_ROLLBACK');
    }
    this.held = { token, claims };
    // A revocation is kept while the set names its key, unless the root vouched for the key again
    // after it (a newer set issued later): the platform never names a revoked key in a later set.
    const named = new Set(claims.keys.map((key) => key.kid));
    for (const [kid, revocation] of this.revocations)
      if (!named.has(kid) || claims.issuedAt > revocation.revokedAt) this.revocations.delete(kid);
    if (tell) this.tell();
    return claims;
  }

  /**
   * Fetches the signed set and its revocations from the platform. What does not verify changes
   * nothing: a fake platform can at most withhold a newer set (a denial of service, never a key).
   */
  async refresh(): Promise<void> {
    await this.loaded;
    if (!this.options.serverUrl) throw new TrustError('KEY_SET_UNREACHABLE');
    const response = await fetch(`${this.options.serverUrl.replace(/\/+$/, '')}${KEY_SET_PATH}`, {
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined);
    if (!response?.ok) throw new TrustError('KEY_SET_UNREACHABLE');
    const body = (await response.json().catch(() => ({}))) as Partial<KeySetAnswer>;
    if (typeof body.keySet !== 'string') throw new TrustError('KEY_SET_INVALID');
    await this.adopt(body.keySet, true).catch((error: unknown) => {
      // The same or an older version than held: keep ours (a replay), the revocations still apply.
      if (!(error instanceof TrustError && error.code === 'KEY_SET_ROLLBACK')) throw error;
    });
    let learnt = false;
    for (const statement of Array.isArray(body.revocations) ? body.revocations : [])
      learnt = (await this.applyRevocation(String(statement)).catch(() => undefined))?.isNew || learnt;
    if (learnt) this.tell();
  }

  /**
   * Applies a revocation statement signed by a key of the set, and tells `onKeySet` so the agent
   * stores it; answers the revoked kid.
   */
  async revoke(statement: string): Promise<string> {
    await this.loaded;
    const { kid, isNew } = await this.applyRevocation(statement);
    if (isNew) this.tell();
    return kid;
  }

  private async applyRevocation(statement: string): Promise<{ kid: string; isNew: boolean }> {
    let payload: Uint8Array;
    try {
      const signer = decodeProtectedHeader(statement).kid;
      const keys = this.trusted(() => true).keys.filter((key) => key.kid === signer);
      const verified = await compactVerify(statement, createLocalJWKSet({ keys }), { algorithms: ['EdDSA'] });
      if (verified.protectedHeader.typ !== KEY_REVOCATION_TYPE) throw new Error('typ');
      payload = verified.payload;
    } catch {
      throw new TrustError('REVOCATION_INVALID');
    }
    const parsed = keyRevocationClaimsSchema.safeParse(safeJson(payload));
    if (!parsed.success) throw new TrustError('REVOCATION_INVALID');
    const { revokedKid, revokedAt } = parsed.data;
    // Of a key the set does not name, there is nothing to keep.
    const isNew =
      !this.revocations.has(revokedKid) && !!this.held?.claims.keys.some((key) => key.kid === revokedKid);
    if (isNew) this.revocations.set(revokedKid, { statement, revokedAt });
    return { kid: revokedKid, isNew };
  }

  /**
   * Until when a key may be trusted (milliseconds): its own expiry in the set, never past the set's.
   * Undefined when the held set does not name it.
   */
  async expiryOf(kid: string): Promise<number | undefined> {
    await this.loaded;
    const key = this.held?.claims.keys.find((entry) => entry.kid === kid);
    if (!this.held || !key) return undefined;
    return Math.min(key.expiresAt, this.held.claims.expiresAt) * 1000;
  }

  /** The keys of a purpose the agent trusts now: named by the held set, unexpired, unrevoked. */
  async keysFor(purpose: SigningKeyPurpose): Promise<PublicJwks> {
    await this.loaded;
    return this.trusted((key) => key.purpose === purpose);
  }

  private trusted(wanted: (key: KeySetClaims['keys'][number]) => boolean): PublicJwks {
    const now = this.options.now();
    if (!this.held || this.held.claims.expiresAt * 1000 <= now) return { keys: [] };
    const keys = this.held.claims.keys.filter(
      (key) => wanted(key) && key.expiresAt * 1000 > now && !this.revocations.has(key.kid),
    );
    return { keys: keys.map(({ expiresAt: _expiresAt, ...jwk }) => jwk) };
  }
}

/**
 * `http://` only to this machine, unless the integrator opts in (a test bench on its own network):
 * anyone on the path of a plain connection reads the access key and answers in the platform's name.
 */
export function assertSecureUrl(url: string, allowInsecureHttp = false): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`Adresse invalide : ${url}`);
  }
  if (parsed.protocol === 'https:') return;
  if (parsed.protocol === 'http:' && (allowInsecureHttp || isLoopbackHostname(parsed.hostname))) return;
  throw new Error(
    `Adresse refusée : ${parsed.origin} — utilisez https:// (http:// n’est accepté que vers cette machine, ou avec allowInsecureHttp: true).`,
  );
}

function isLoopbackHostname(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    bare === 'localhost' || bare.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(bare) || bare === '::1'
  );
}

function noop(): void {}

/** The stored trust (what `stored` gave), or a bare signed set stored before revocations were kept. */
function parseStored(stored: string): KeySetAnswer {
  if (!stored.trimStart().startsWith('{')) return { keySet: stored, revocations: [] };
  const parsed = keySetAnswer.safeParse(safeJsonText(stored));
  return parsed.success ? parsed.data : { keySet: '', revocations: [] };
}

function safeJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function safeJson(payload: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(payload));
  } catch {
    return undefined;
  }
}
