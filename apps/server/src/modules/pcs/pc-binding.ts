import type { HwidComponents } from '@bot/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { claimHwid, releaseHwid, startHwidCooldown } from '../users/index.ts';
import { type HwidComponentsRow, hwidComponents } from './pcs.table.ts';

/**
 * The binding's writes: a user's hwid (its column on users) and the components kept beside it
 * (decision 906), changed together, only here (decision 014).
 */

/** Binds a PC to a user who has none (forgetting the released one); false when one is bound. */
export async function claimPc(ctx: AppContext, userId: string, hwid: string): Promise<boolean> {
  if (!(await claimHwid(ctx, userId, hwid))) return false;
  await ctx.db
    .delete(hwidComponents)
    .where(and(eq(hwidComponents.userId, userId), inArray(hwidComponents.slot, ['released', 'seen'])));
  return true;
}

/**
 * Unbinds the user's PC, remembering which one and when (decision 207); `resetAt` starts the
 * cooldown of the next self-service reset.
 */
export async function releasePc(
  ctx: AppContext,
  input: { userId: string; hwid: string; resetAt: Date | null },
): Promise<void> {
  await releaseHwid(ctx, input);
  // The PC as last seen (else its reference) becomes the released PC (decision 207 judges it by
  // its parts too): the bot still running on it reports those parts.
  const { bound, seen } = await findHwidComponents(ctx, input.userId);
  await ctx.db.delete(hwidComponents).where(eq(hwidComponents.userId, input.userId));
  const last = seen ?? bound;
  if (last) {
    await ctx.db.insert(hwidComponents).values({ ...last, slot: 'released', updatedAt: new Date() });
  }
}

/**
 * The hashed components of the user's bound PC (its reference, and its parts as last seen when they
 * differ) and of the PC unbound last (decision 906).
 */
export async function findHwidComponents(
  ctx: AppContext,
  userId: string,
): Promise<{ bound?: HwidComponentsRow; seen?: HwidComponentsRow; released?: HwidComponentsRow }> {
  const rows = await ctx.db.select().from(hwidComponents).where(eq(hwidComponents.userId, userId));
  return {
    bound: rows.find((row) => row.slot === 'bound'),
    seen: rows.find((row) => row.slot === 'seen'),
    released: rows.find((row) => row.slot === 'released'),
  };
}

/**
 * Stores the bound PC's reference components (on binding, or for a binding of before decision 906),
 * or with `slot: 'seen'` its parts as last reported after a free part change.
 */
export async function storeBoundComponents(
  ctx: AppContext,
  input: { userId: string; hwid: string; components: HwidComponents; slot?: 'bound' | 'seen' },
): Promise<void> {
  const row = { hwid: input.hwid, components: input.components, updatedAt: new Date() };
  await ctx.db
    .insert(hwidComponents)
    .values({ userId: input.userId, slot: input.slot ?? 'bound', ...row })
    .onConflictDoUpdate({ target: [hwidComponents.userId, hwidComponents.slot], set: row });
}

/**
 * A bound PC whose parts mostly changed since its reference counts as unbound and bound again under
 * the same hwid (decision 906): its reference moves to `components`, the last-seen parts go, and
 * `at` starts the cooldown of the next unbind like a self-service reset.
 */
export async function rebindPc(
  ctx: AppContext,
  input: { userId: string; hwid: string; components: HwidComponents; at: Date },
): Promise<void> {
  await startHwidCooldown(ctx, input.userId, input.at);
  await ctx.db
    .delete(hwidComponents)
    .where(and(eq(hwidComponents.userId, input.userId), eq(hwidComponents.slot, 'seen')));
  await storeBoundComponents(ctx, input);
}
