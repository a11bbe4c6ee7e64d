import {
  KEY_REVOCATION_TYPE,
  type KeySetClaims,
  type PublicJwks,
  SIGNING_KEY_PURPOSES,
  type SigningKey,
  type SigningKeyPurpose,
} from '@bot/contracts';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  SignJWT,
} from 'jose';
import { type AppContext, inTransaction } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { reseal, seal, unseal } from '../../core/sealing.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { getSettings } from '../settings/index.ts';
import { keySets } from './key-sets.table.ts';
import { type SigningKeyRow, signingKeys } from './signing-keys.table.ts';

/** A key ready to sign: its id and its private key. */
export interface LeaseSigner {
  kid: string;
  privateKey: CryptoKey;
}

/** Imported private keys by kid: a kid names one immutable key, so the cache never goes stale. */
const importedKeys = new Map<string, Promise<CryptoKey>>();

/**
 * A fresh Ed25519 pair: the public JWK (with its thumbprint as kid, and its purpose: verifiers use a
 * lease key for leases only, a release key for manifests only) and the sealed private JWK.
 */
async function newKeyPair(
  ctx: AppContext,
  purpose: SigningKeyPurpose,
  state: 'current' | 'standby' = 'current',
): Promise<typeof signingKeys.$inferInsert> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = await exportJWK(privateKey);
  return {
    kid,
    purpose,
    state,
    publicJwk: { ...(publicJwk as Record<string, string>), kid, alg: 'EdDSA', use: 'sig', purpose },
    privateJwkSealed: seal(JSON.stringify(privateJwk), ctx.sealingKey),
  };
}

async function findCurrent(ctx: AppContext, purpose: SigningKeyPurpose): Promise<SigningKeyRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(signingKeys)
    .where(and(eq(signingKeys.state, 'current'), eq(signingKeys.purpose, purpose)));
  return row;
}

/**
 * The key that signs new leases, created on first need. Every node reads the same row, so a
 * rotation on one node is used at once by all; two nodes creating the first key together keep one.
 */
export async function currentSigner(
  ctx: AppContext,
  purpose: SigningKeyPurpose = 'lease',
): Promise<LeaseSigner> {
  let row = await findCurrent(ctx, purpose);
  if (!row) {
    await ctx.db
      .insert(signingKeys)
      .values(await newKeyPair(ctx, purpose))
      .onConflictDoNothing();
    row = await findCurrent(ctx, purpose);
    if (!row) throw new AppError('INTERNAL');
  }
  return { kid: row.kid, privateKey: await importPrivateKey(ctx, row) };
}

function importPrivateKey(ctx: AppContext, row: SigningKeyRow): Promise<CryptoKey> {
  let imported = importedKeys.get(row.kid);
  if (!imported) {
    const jwk = JSON.parse(unseal(row.privateJwkSealed, ctx.sealingKey)) as JWK;
    imported = importJWK(jwk, 'EdDSA') as Promise<CryptoKey>;
    importedKeys.set(row.kid, imported);
  }
  return imported;
}

/**
 * How long a retired key stays published: the longest a lease it signed can still be used (its
 * lifetime plus the grace). Past that, nothing it signed is acceptable any more.
 */
export async function publishedWindowMs(ctx: AppContext): Promise<number> {
  const { leaseLifetimeHours, leaseGraceHours } = await getSettings(ctx);
  return (leaseLifetimeHours + leaseGraceHours) * 3_600_000;
}

/** `GET /.well-known/jwks.json`: the current key and the previous ones whose leases may still run. */
export async function publishedKeys(ctx: AppContext): Promise<PublicJwks> {
  // A fresh install publishes its first keys before any lease or manifest exists.
  await currentSigner(ctx, 'lease');
  await currentSigner(ctx, 'release');
  const since = new Date(Date.now() - (await publishedWindowMs(ctx)));
  const rows = await ctx.db
    .select({ publicJwk: signingKeys.publicJwk, state: signingKeys.state, retiredAt: signingKeys.retiredAt })
    .from(signingKeys)
    .where(inArray(signingKeys.state, ['current', 'previous']))
    .orderBy(desc(signingKeys.createdAt));
  const keys = rows.filter((row) => row.state === 'current' || (row.retiredAt && row.retiredAt > since));
  return { keys: keys.map((row) => row.publicJwk) as PublicJwks['keys'] };
}

/** Every key, newest first, as staff see them (never the private part). */
export async function listSigningKeys(ctx: AppContext): Promise<SigningKey[]> {
  const since = new Date(Date.now() - (await publishedWindowMs(ctx)));
  const rows = await ctx.db.select().from(signingKeys).orderBy(desc(signingKeys.createdAt));
  return rows.map((row) => ({
    kid: row.kid,
    purpose: row.purpose,
    state: row.state,
    createdAt: row.createdAt.toISOString(),
    retiredAt: row.retiredAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    published:
      row.state === 'current' ||
      row.state === 'standby' ||
      (row.state === 'previous' && Boolean(row.retiredAt && row.retiredAt > since)),
  }));
}

/**
 * Retires the current key of a purpose (if any) and puts its standby in service, already in the
 * signed key set (decision 912), or a new key when there is no standby; in the caller's transaction.
 */
export async function rotateCurrentKey(
  tx: AppContext,
  purpose: SigningKeyPurpose,
): Promise<{ before: string | null; after: string }> {
  // Serialises two rotations at once (on any node): the second waits and retires the first's key.
  await tx.db.execute(sql`lock table ${signingKeys} in share row exclusive mode`);
  const before = await findCurrent(tx, purpose);
  if (before) {
    await tx.db
      .update(signingKeys)
      .set({ state: 'previous', retiredAt: new Date() })
      .where(and(eq(signingKeys.kid, before.kid), eq(signingKeys.state, 'current')));
  }
  const [standby] = await tx.db
    .select()
    .from(signingKeys)
    .where(and(eq(signingKeys.state, 'standby'), eq(signingKeys.purpose, purpose)))
    .limit(1);
  if (standby) {
    await tx.db.update(signingKeys).set({ state: 'current' }).where(eq(signingKeys.kid, standby.kid));
    return { before: before?.kid ?? null, after: standby.kid };
  }
  const next = await newKeyPair(tx, purpose);
  await tx.db.insert(signingKeys).values(next);
  return { before: before?.kid ?? null, after: next.kid };
}

/** A current and a standby key for each purpose, made when missing (before a set is signed). */
export async function ensureSigningKeys(tx: AppContext): Promise<void> {
  await tx.db.execute(sql`lock table ${signingKeys} in share row exclusive mode`);
  for (const purpose of SIGNING_KEY_PURPOSES) {
    const rows = await tx.db
      .select({ state: signingKeys.state })
      .from(signingKeys)
      .where(and(eq(signingKeys.purpose, purpose), inArray(signingKeys.state, ['current', 'standby'])));
    for (const state of ['current', 'standby'] as const)
      if (!rows.some((row) => row.state === state))
        await tx.db.insert(signingKeys).values(await newKeyPair(tx, purpose, state));
  }
}

/**
 * The key that signs a revocation: one the agents already trust (named by the latest signed set,
 * not revoked), the current key of the same purpose first. Without one (no set yet) the current key.
 */
async function revocationSigner(tx: AppContext, purpose: SigningKeyPurpose): Promise<LeaseSigner> {
  const [set] = await tx.db
    .select({ token: keySets.token })
    .from(keySets)
    .orderBy(desc(keySets.version))
    .limit(1);
  const inSet = new Set(
    set ? (decodeJwt(set.token) as unknown as KeySetClaims).keys.map((key) => key.kid) : [],
  );
  const rows = await tx.db
    .select()
    .from(signingKeys)
    .where(inArray(signingKeys.state, ['current', 'standby']));
  const rank = (row: SigningKeyRow) => (row.purpose === purpose ? 0 : 2) + (row.state === 'current' ? 0 : 1);
  const trusted = rows.filter((row) => inSet.has(row.kid)).sort((a, b) => rank(a) - rank(b))[0];
  if (!trusted) return currentSigner(tx, purpose);
  return { kid: trusted.kid, privateKey: await importPrivateKey(tx, trusted) };
}

/**
 * Revokes a key at once (a leaked key), without the root: a revocation statement signed by a key of
 * the current set (decision 912) is published beside the set, and connected agents are told over
 * their socket (`lease_revoked` with the kid and the statement) and replace such a lease at once.
 * Revoking the key in service puts its standby in service first.
 */
export function revokeSigningKey(
  ctx: AppContext,
  input: { kid: string; actor: AuditActor },
): Promise<SigningKey> {
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.db.select().from(signingKeys).where(eq(signingKeys.kid, input.kid)).for('update');
    if (!row) throw new AppError('SIGNING_KEY_NOT_FOUND');
    if (row.state === 'revoked') return findKey(tx, row.kid);
    const replaced = row.state === 'current' ? await rotateCurrentKey(tx, row.purpose) : undefined;
    const revokedAt = new Date();
    await tx.db.update(signingKeys).set({ state: 'revoked', revokedAt }).where(eq(signingKeys.kid, row.kid));
    const signer = await revocationSigner(tx, row.purpose);
    const statement = await new SignJWT({
      revokedKid: row.kid,
      revokedAt: Math.floor(revokedAt.getTime() / 1000),
    })
      .setProtectedHeader({ alg: 'EdDSA', kid: signer.kid, typ: KEY_REVOCATION_TYPE })
      .sign(signer.privateKey);
    await tx.db
      .update(signingKeys)
      .set({ revocationStatement: statement })
      .where(eq(signingKeys.kid, row.kid));
    await writeAudit(tx, {
      actor: input.actor,
      action: 'signing_key.revoke',
      target: { type: 'signing_key', id: row.kid },
      after: { revokedKid: row.kid, currentKid: replaced?.after ?? null },
    });
    // After the commit, every node tells its connected agents: a lease this key signed is dropped now.
    tx.events.emit('signingKey.revoked', { kid: row.kid, statement });
    return findKey(tx, row.kid);
  });
}

async function findKey(ctx: AppContext, kid: string): Promise<SigningKey> {
  const key = (await listSigningKeys(ctx)).find((entry) => entry.kid === kid);
  if (!key) throw new AppError('SIGNING_KEY_NOT_FOUND');
  return key;
}

/**
 * Seals every signing key's private half under `to` instead of `from` (secrets-at-rest.ts), in the
 * caller's transaction. The keys themselves do not change: what they signed still verifies.
 */
export async function resealSigningKeys(
  ctx: Pick<AppContext, 'db'>,
  from: Buffer,
  to: Buffer,
): Promise<number> {
  const rows = await ctx.db
    .select({ kid: signingKeys.kid, sealed: signingKeys.privateJwkSealed })
    .from(signingKeys);
  for (const row of rows)
    await ctx.db
      .update(signingKeys)
      .set({ privateJwkSealed: reseal(row.sealed, from, to) })
      .where(eq(signingKeys.kid, row.kid));
  return rows.length;
}
