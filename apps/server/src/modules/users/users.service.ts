import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AppContext, TxContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { hashSecret, newId, newSecret } from '../../core/ids.ts';
import { reseal, seal, unseal } from '../../core/sealing.ts';
import { type UserRow, users } from './users.table.ts';

export async function findUserById(ctx: AppContext, userId: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
  return row;
}

/** The PC each user has bound (null when none), in one query; users not found are absent. */
export async function findHwidsOfUsers(
  ctx: AppContext,
  userIds: readonly string[],
): Promise<Map<string, string | null>> {
  const rows = await ctx.db
    .select({ id: users.id, hwid: users.hwid })
    .from(users)
    .where(inArray(users.id, [...new Set(userIds)]));
  return new Map(rows.map((row) => [row.id, row.hwid]));
}

export async function getUserById(ctx: AppContext, userId: string): Promise<UserRow> {
  const row = await findUserById(ctx, userId);
  if (!row) throw new AppError('USER_NOT_FOUND');
  return row;
}

/**
 * The user's row, locked until the use case's transaction ends: a use case that decides on the row
 * (a bound PC, a cooldown, a ban) and then changes it cannot race a second one doing the same.
 */
export async function lockUser(tx: AppContext, userId: string): Promise<UserRow> {
  const [row] = await tx.db.select().from(users).where(eq(users.id, userId)).for('update');
  if (!row) throw new AppError('USER_NOT_FOUND');
  return row;
}

/** Who has this PC bound now, if anyone. */
export async function findUserByHwid(ctx: AppContext, hwid: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(eq(users.hwid, hwid));
  return row;
}

export async function findUserByUsername(ctx: AppContext, username: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`);
  return row;
}

export async function findUserByEmail(ctx: AppContext, email: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

/** A user signs in with their username or their e-mail. */
export async function findUserByLogin(ctx: AppContext, login: string): Promise<UserRow | undefined> {
  return login.includes('@') ? findUserByEmail(ctx, login) : findUserByUsername(ctx, login);
}

export async function findUserByBotKey(ctx: AppContext, accessKey: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(eq(users.botKeyHash, hashSecret(accessKey)));
  return row;
}

// ---- Writes. This module owns the users table: every other module changes a user through these.

type NewUser = Pick<typeof users.$inferInsert, 'username' | 'email' | 'passwordHash'> &
  Partial<Pick<typeof users.$inferInsert, 'referral' | 'referredById' | 'isAdministrator' | 'activatedAt'>>;

/** Inserts an account; the unique indexes on username and e-mail decide races (callers map them). */
export async function createUser(ctx: AppContext, input: NewUser): Promise<UserRow> {
  const [row] = await ctx.db
    .insert(users)
    .values({ id: newId(), ...input })
    .returning();
  return row!;
}

export async function markActivated(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.update(users).set({ activatedAt: new Date() }).where(eq(users.id, userId));
}

export async function updatePasswordHash(
  ctx: AppContext,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await ctx.db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

/** Changes a user's Discord id; the user caches drop it at the commit. */
export async function updateDiscordId(
  tx: TxContext,
  userId: string,
  discordId: string | null,
): Promise<void> {
  await tx.db.update(users).set({ discordId }).where(eq(users.id, userId));
  tx.events.emit('user.changed', { userId });
}

// The PC binding's columns on users (the specification's single `user.hwid`): written only by the
// PC module's use cases (modules/pcs, decision 014), which keep the components beside them.

/** Binds a PC to a user who has none (forgetting the released one); false when one is bound. */
export async function claimHwid(ctx: AppContext, userId: string, hwid: string): Promise<boolean> {
  const rows = await ctx.db
    .update(users)
    .set({ hwid, releasedHwid: null, releasedAt: null })
    .where(and(eq(users.id, userId), isNull(users.hwid)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Unbinds the user's PC, remembering which one and when (decision 207); `resetAt` starts the
 * cooldown of the next self-service reset.
 */
export async function releaseHwid(
  ctx: AppContext,
  input: { userId: string; hwid: string; resetAt: Date | null },
): Promise<void> {
  await ctx.db
    .update(users)
    .set({ hwid: null, hwidResetAt: input.resetAt, releasedHwid: input.hwid, releasedAt: new Date() })
    .where(eq(users.id, input.userId));
}

/** Starts the cooldown of the next unbind (a change counted as one, decision 906). */
export async function startHwidCooldown(ctx: AppContext, userId: string, at: Date): Promise<void> {
  await ctx.db.update(users).set({ hwidResetAt: at }).where(eq(users.id, userId));
}

/** Bans (with a reason) or lifts the ban (`null`). */
export async function setBan(ctx: AppContext, userId: string, ban: { reason: string } | null): Promise<void> {
  await ctx.db
    .update(users)
    .set(ban ? { bannedAt: new Date(), banReason: ban.reason } : { bannedAt: null, banReason: null })
    .where(eq(users.id, userId));
}

/** Creates a new bot access key, replacing the previous one; answers it in clear once more. */
export async function rotateBotKey(ctx: AppContext, userId: string): Promise<string> {
  const accessKey = `bk_${newSecret(32)}`;
  await ctx.db
    .update(users)
    .set({ botKeyHash: hashSecret(accessKey), botKeySealed: seal(accessKey, ctx.sealingKey) })
    .where(eq(users.id, userId));
  return accessKey;
}

/** The user's bot access key, created on first ask (two first asks at once get the same key). */
export async function getOrCreateBotKey(ctx: AppContext, userId: string): Promise<string> {
  const row = await getUserById(ctx, userId);
  if (row.botKeySealed) return unseal(row.botKeySealed, ctx.sealingKey);
  const accessKey = `bk_${newSecret(32)}`;
  // Only the first writer sets the key; a concurrent loser reads the winner's key back.
  await ctx.db
    .update(users)
    .set({ botKeyHash: hashSecret(accessKey), botKeySealed: seal(accessKey, ctx.sealingKey) })
    .where(and(eq(users.id, userId), isNull(users.botKeySealed)));
  const stored = await getUserById(ctx, userId);
  return unseal(stored.botKeySealed!, ctx.sealingKey);
}

/**
 * Seals every stored bot access key under `to` instead of `from` (a master key upgrade or rotation,
 * secrets-at-rest.ts), inside the caller's transaction; answers how many.
 */
export async function resealBotKeys(ctx: Pick<AppContext, 'db'>, from: Buffer, to: Buffer): Promise<number> {
  const rows = await ctx.db
    .select({ id: users.id, sealed: users.botKeySealed })
    .from(users)
    .where(isNotNull(users.botKeySealed));
  for (const row of rows)
    await ctx.db
      .update(users)
      .set({ botKeySealed: reseal(row.sealed!, from, to) })
      .where(eq(users.id, row.id));
  return rows.length;
}
