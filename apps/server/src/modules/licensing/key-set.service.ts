import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  KEY_SET_EXPIRY_WARNING_DAYS,
  KEY_SET_LIFETIME_DAYS,
  KEY_SET_TYPE,
  type KeySetAnswer,
  type KeySetClaims,
  type KeySetStatus,
  type SigningKeyPurpose,
} from '@bot/contracts';
import { desc, inArray, isNotNull, sql } from 'drizzle-orm';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  SignJWT,
} from 'jose';
import type { AppConfig } from '../../config.ts';
import { type AppContext, inTransaction } from '../../context.ts';
import { StartupError } from '../../core/startup-errors.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { type KeySetRow, keySets } from './key-sets.table.ts';
import {
  ensureSigningKeys,
  publishedWindowMs,
  revokeSigningKey,
  rotateCurrentKey,
} from './signing-keys.service.ts';
import { signingKeys } from './signing-keys.table.ts';

/**
 * The root of trust of the agents (docs/licensing.md, decision 912). An offline Ed25519 root key
 * signs the key set (the lease and release keys, their purposes and expiries, a version); agents
 * pin the root's public key. The root's private key lives in a file the operator keeps, never on
 * the server: only `npm run keys:rotate -- --root-key FILE` reads it, for one signature. A loopback
 * installation (a trial, the demo, the tests) makes a development root of its own in DATA_DIR.
 */

/** The development root's file in DATA_DIR (loopback installations only). */
export const DEVELOPMENT_ROOT_FILE = 'trust-root.development.json';

/** A root key ready to sign one set. */
export interface RootKey {
  kid: string;
  publicJwk: JWK;
  privateKey: CryptoKey;
  isDevelopment: boolean;
}

/** The public half of a private Ed25519 JWK, with its RFC 7638 thumbprint as kid. */
async function publicHalf(jwk: JWK): Promise<{ kid: string; publicJwk: JWK }> {
  const publicJwk = { kty: jwk.kty, crv: jwk.crv, x: jwk.x } as JWK;
  const kid = await calculateJwkThumbprint(publicJwk);
  return { kid, publicJwk: { ...publicJwk, kid, alg: 'EdDSA', use: 'sig' } };
}

/** Reads a root key file (`npm run keys:root` wrote it); any other file stops the start-up it is read by. */
export async function loadRootKey(file: string, isDevelopment = false): Promise<RootKey> {
  const jwk = JSON.parse(await readFile(file, 'utf8')) as JWK;
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.d)
    throw new StartupError(
      `${file} n’est pas une clé racine privée Ed25519 (JWK) : créez-la avec npm run keys:root.`,
    );
  const { kid, publicJwk } = await publicHalf(jwk);
  return { kid, publicJwk, privateKey: (await importJWK(jwk, 'EdDSA')) as CryptoKey, isDevelopment };
}

/**
 * Writes a new root key, private JWK, to `file` (0600, never over an existing file); answers its
 * public half, which the vendor builds into its agent.
 */
export async function createRootKeyFile(file: string): Promise<{ kid: string; publicJwk: JWK }> {
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = await exportJWK(privateKey);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(jwk)}\n`, { mode: 0o600, flag: 'wx' });
  return publicHalf(jwk);
}

/** The loopback installation's development root, created in DATA_DIR (0600) on first need. */
async function developmentRoot(dataDir: string): Promise<RootKey> {
  const file = path.join(dataDir, DEVELOPMENT_ROOT_FILE);
  try {
    return await loadRootKey(file, true);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Written under a temporary name then renamed: two processes starting together keep one root.
  const temporary = `${file}.${randomUUID()}`;
  await createRootKeyFile(temporary);
  await rename(temporary, file).catch(() => undefined);
  await chmod(file, 0o600).catch(() => undefined);
  return loadRootKey(file, true);
}

/** The set every node serves: the highest version. */
export async function findCurrentKeySet(ctx: Pick<AppContext, 'db'>): Promise<KeySetRow | undefined> {
  const [row] = await ctx.db.select().from(keySets).orderBy(desc(keySets.version)).limit(1);
  return row;
}

/**
 * The keys the set names: for each purpose the current and the standby key (until the set's
 * expiry), and the previous keys for as long as what they signed may still run. Revoked keys never.
 */
async function keysOfSet(tx: AppContext, expiresAt: number): Promise<KeySetClaims['keys']> {
  const windowMs = await publishedWindowMs(tx);
  const rows = await tx.db
    .select()
    .from(signingKeys)
    .where(inArray(signingKeys.state, ['current', 'standby', 'previous']));
  const keys: KeySetClaims['keys'] = [];
  for (const row of rows) {
    const until =
      row.state === 'previous'
        ? Math.min(expiresAt, Math.floor(((row.retiredAt?.getTime() ?? 0) + windowMs) / 1000))
        : expiresAt;
    if (until * 1000 <= Date.now()) continue;
    const jwk = row.publicJwk as KeySetClaims['keys'][number];
    keys.push({ ...jwk, purpose: row.purpose, expiresAt: until });
  }
  return keys;
}

/**
 * Signs the next version of the key set with the root, in one transaction: rotates a purpose's key
 * first when asked (its standby takes over, a new standby is made), keeps a current and a standby key
 * per purpose, and writes the audit entry. Used by `npm run keys:rotate` and, on a loopback
 * installation, with the development root.
 */
export function signKeySet(
  ctx: AppContext,
  input: { root: RootKey; actor: AuditActor; rotate?: SigningKeyPurpose; days?: number },
): Promise<KeySetRow>;
export function signKeySet(
  ctx: AppContext,
  input: {
    root: RootKey;
    actor: AuditActor;
    rotate?: SigningKeyPurpose;
    days?: number;
    /** Signs only when this holds of the set in service, read under the lock (else answers null). */
    onlyIf?: (current: KeySetRow | undefined) => boolean;
  },
): Promise<KeySetRow | null>;
export function signKeySet(
  ctx: AppContext,
  input: {
    root: RootKey;
    actor: AuditActor;
    rotate?: SigningKeyPurpose;
    days?: number;
    onlyIf?: (current: KeySetRow | undefined) => boolean;
  },
): Promise<KeySetRow | null> {
  return inTransaction(ctx, async (tx) => {
    // Two signatures at once (two nodes starting, a CLI beside a node) take turns: versions never collide.
    await tx.db.execute(sql`lock table ${keySets} in share row exclusive mode`);
    const previous = await findCurrentKeySet(tx);
    if (input.onlyIf && !input.onlyIf(previous)) return null;
    const rotated = input.rotate ? await rotateCurrentKey(tx, input.rotate) : undefined;
    await ensureSigningKeys(tx);
    const version = (previous?.version ?? 0) + 1;
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + Math.round((input.days ?? KEY_SET_LIFETIME_DAYS) * 86_400);
    const claims: KeySetClaims = { version, issuedAt, expiresAt, keys: await keysOfSet(tx, expiresAt) };
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'EdDSA', kid: input.root.kid, typ: KEY_SET_TYPE })
      .sign(input.root.privateKey);
    const [row] = await tx.db
      .insert(keySets)
      .values({
        version,
        token,
        rootKid: input.root.kid,
        rootPublicJwk: input.root.publicJwk as Record<string, string>,
        isDevelopmentRoot: input.root.isDevelopment,
        issuedAt: new Date(issuedAt * 1000),
        expiresAt: new Date(expiresAt * 1000),
      })
      .returning();
    await writeAudit(tx, {
      actor: input.actor,
      action: 'signing_key.sign_set',
      target: { type: 'signing_key', id: String(version) },
      before: { version: previous?.version ?? null, currentKid: rotated?.before ?? null },
      after: {
        version,
        expiresAt: new Date(expiresAt * 1000).toISOString(),
        rootKid: input.root.kid,
        ...(rotated ? { currentKid: rotated.after, purpose: input.rotate } : {}),
      },
    });
    return row as KeySetRow;
  });
}

/** `GET /.well-known/bot-keyset.json`: the set in service and the signed revocations (null: none yet). */
export async function publishedKeySet(ctx: AppContext): Promise<KeySetAnswer | null> {
  const current = await findCurrentKeySet(ctx);
  if (!current) return null;
  const revoked = await ctx.db
    .select({ statement: signingKeys.revocationStatement })
    .from(signingKeys)
    .where(isNotNull(signingKeys.revocationStatement));
  return { keySet: current.token, revocations: revoked.map((row) => row.statement as string) };
}

/** The command that rotates the set, as the staff page shows it. */
const ROTATE_COMMAND = 'npm run keys:rotate -- --root-key /chemin/vers/racine.jwk';

/** The set in service as staff see it (`GET /admin/key-set`). */
export async function keySetStatus(ctx: AppContext): Promise<KeySetStatus | null> {
  const current = await findCurrentKeySet(ctx);
  if (!current) return null;
  const claims = JSON.parse(
    Buffer.from(current.token.split('.')[1] ?? '', 'base64url').toString(),
  ) as KeySetClaims;
  return {
    version: current.version,
    issuedAt: current.issuedAt.toISOString(),
    expiresAt: current.expiresAt.toISOString(),
    rootKid: current.rootKid,
    isDevelopmentRoot: current.isDevelopmentRoot,
    keys: claims.keys.map((key) => ({
      kid: key.kid,
      purpose: key.purpose,
      expiresAt: new Date(key.expiresAt * 1000).toISOString(),
    })),
    rotateCommand: ROTATE_COMMAND,
  };
}

/**
 * What a public installation lacks here (app.ts adds it to the installation check): a set signed
 * by a real root, unexpired. Without it agents would trust nothing, or a development root.
 */
export async function keySetProblems(
  ctx: Pick<AppContext, 'db'>,
  config: Pick<AppConfig, 'installation'>,
): Promise<string[]> {
  if (config.installation.isLoopback) return [];
  const current = await findCurrentKeySet(ctx);
  const fix =
    'créez la clé racine hors du serveur avec npm run keys:root -- --out /chemin/hors/DATA_DIR/racine.jwk, puis signez le jeu de clés avec npm run keys:rotate -- --root-key /chemin/hors/DATA_DIR/racine.jwk (docs/licensing.md).';
  if (!current) return [`Aucun jeu de clés signé par une clé racine : ${fix}`];
  if (current.isDevelopmentRoot)
    return [`Le jeu de clés est signé par une racine de développement (installation d’essai) : ${fix}`];
  if (current.expiresAt.getTime() <= Date.now())
    return [`Le jeu de clés a expiré le ${current.expiresAt.toISOString()} : ${fix}`];
  return [];
}

/**
 * At start: a loopback installation signs its key set with its development root when it has none,
 * or when its development set nears its expiry; it says so in the log. A set of a real root is kept.
 * Another node's development root (a trial cluster) is left to that node.
 */
export async function establishDevelopmentKeySet(ctx: AppContext): Promise<void> {
  if (!ctx.config.installation.isLoopback) return;
  const root = await developmentRoot(ctx.config.dataDir);
  const isDue = (current: KeySetRow | undefined) =>
    !current ||
    (current.isDevelopmentRoot &&
      current.rootKid === root.kid &&
      current.expiresAt.getTime() - Date.now() < KEY_SET_EXPIRY_WARNING_DAYS * 86_400_000);
  const signed = await signKeySet(ctx, {
    root,
    actor: { id: null, username: 'system:dev-root', ip: null },
    onlyIf: isDue,
  });
  if (!signed) return;
  ctx.log.warn(
    { keySetVersion: signed.version, rootKid: root.kid },
    `jeu de clés signé par une racine de DÉVELOPPEMENT (${path.join(ctx.config.dataDir, DEVELOPMENT_ROOT_FILE)}) : installation d’essai seulement ; une installation publique exige npm run keys:root puis npm run keys:rotate -- --root-key (docs/licensing.md)`,
  );
}

/**
 * On a loopback installation, after a revocation used the standby key: signs a new set with the
 * development root, when it is that root's set, so a trial keeps a standby key (a public
 * installation waits for its operator's `keys:rotate`).
 */
async function resignDevelopmentKeySet(ctx: AppContext, actor: AuditActor): Promise<void> {
  if (!ctx.config.installation.isLoopback) return;
  const root = await developmentRoot(ctx.config.dataDir);
  await signKeySet(ctx, {
    root,
    actor,
    onlyIf: (current: KeySetRow | undefined) =>
      !current || (current.isDevelopmentRoot && current.rootKid === root.kid),
  });
}

/** The development root's public key, for `DEV_TRUST_ROOT_PATH` (null on a public installation). */
export async function developmentRootPublicKey(ctx: AppContext): Promise<JWK | null> {
  if (!ctx.config.installation.isLoopback) return null;
  const current = await findCurrentKeySet(ctx);
  if (!current?.isDevelopmentRoot) return null;
  return current.rootPublicJwk as JWK;
}

/** The development root of a loopback installation (the tests sign with it as an operator would). */
export function loadDevelopmentRoot(ctx: Pick<AppContext, 'config'>): Promise<RootKey> {
  return developmentRoot(ctx.config.dataDir);
}

/**
 * Revokes a signing key (`POST /admin/signing-keys/:kid/revoke`): the revocation needs no root (its
 * statement is signed by a key of the set); a loopback installation then signs a set with a fresh
 * standby key itself.
 */
export function revokeKey(ctx: AppContext, input: { kid: string; actor: AuditActor }) {
  return inTransaction(ctx, async (tx) => {
    const key = await revokeSigningKey(tx, input);
    await resignDevelopmentKeySet(tx, input.actor);
    return key;
  });
}
