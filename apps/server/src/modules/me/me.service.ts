import type { HwidResetAllowance } from '@bot/contracts';
import { type AppContext, inTransaction } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { writeAudit } from '../audit/index.ts';
import { revokeBotSessions, unbindPc } from '../bots/index.ts';
import { getNextHwidResetAt, unbindAllowanceOf } from '../pcs/index.ts';
import { findUserById, lockUser, rotateBotKey, updateDiscordId } from '../users/index.ts';

function cooldownRefusal(nextAllowed: Date): AppError {
  return new AppError('HWID_RESET_COOLDOWN', {
    retryAfter: Math.ceil((nextAllowed.getTime() - Date.now()) / 1000),
    details: { nextResetAt: nextAllowed.toISOString() },
  });
}

/**
 * How many unbinds the user has left over the last 30 days (the `hwidResetsPerMonth` cap, counted
 * from the audit trail: their own resets and their PC changed too much since it was bound, never
 * staff resets), and when the cooldown allows the next one. Shown to the customer before they use
 * one (decision 906).
 */
export async function getHwidResetAllowance(ctx: AppContext, userId: string): Promise<HwidResetAllowance> {
  const user = await findUserById(ctx, userId);
  return (await unbindAllowanceOf(ctx, userId, user?.hwidResetAt ?? null)).allowance;
}

function limitRefusal(nextAllowed: Date, limit: number): AppError {
  return new AppError('HWID_RESET_LIMIT', {
    retryAfter: Math.max(1, Math.ceil((nextAllowed.getTime() - Date.now()) / 1000)),
    details: { nextResetAt: nextAllowed.toISOString(), limit },
  });
}

/**
 * The customer unbinds their own PC, at most once per cooldown and `hwidResetsPerMonth` times per
 * 30 days (settings); answers what they have left. One transaction: the binding, the bot sessions
 * and the audit entry (`unbindPc`), under the user's lock (the count cannot race).
 */
export function resetHwid(
  ctx: AppContext,
  input: { userId: string; ip: string | null },
): Promise<HwidResetAllowance> {
  return inTransaction(ctx, async (tx) => {
    const user = await lockUser(tx, input.userId);
    const { hwid } = user;
    if (!hwid) throw new AppError('HWID_NOT_BOUND');
    const nextAllowed = await getNextHwidResetAt(tx, user.hwidResetAt);
    if (nextAllowed.getTime() > Date.now()) throw cooldownRefusal(nextAllowed);
    const before = await unbindAllowanceOf(tx, user.id, user.hwidResetAt);
    if (before.slotFreesAt) throw limitRefusal(before.slotFreesAt, before.allowance.limit);
    const now = new Date();
    await unbindPc(tx, {
      user: { ...user, hwid },
      actor: { id: user.id, username: user.username, ip: input.ip },
      resetAt: now,
    });
    return (await unbindAllowanceOf(tx, user.id, now)).allowance;
  });
}

/** Replaces the bot access key; the bot sessions opened with the old one end with it. */
export function rotateMyBotKey(
  ctx: AppContext,
  input: { userId: string; ip: string | null },
): Promise<string> {
  return inTransaction(ctx, async (tx) => {
    const user = await lockUser(tx, input.userId);
    const accessKey = await rotateBotKey(tx, user.id);
    await revokeBotSessions(tx, { userId: user.id });
    await writeAudit(tx, {
      actor: { id: user.id, username: user.username, ip: input.ip },
      action: 'user.bot_key_rotated',
      target: { type: 'user', id: user.id, label: user.username },
    });
    tx.events.emit('botKey.rotated', { userId: user.id });
    return accessKey;
  });
}

/** The customer sets or clears their Discord id (alerts can reach them there). */
export function changeMyDiscordId(
  ctx: AppContext,
  input: { userId: string; discordId: string | null; ip: string | null },
): Promise<void> {
  return inTransaction(ctx, async (tx) => {
    const user = await lockUser(tx, input.userId);
    await updateDiscordId(tx, user.id, input.discordId);
    await writeAudit(tx, {
      actor: { id: user.id, username: user.username, ip: input.ip },
      action: 'user.discord',
      target: { type: 'user', id: user.id, label: user.username },
      before: { discordId: user.discordId },
      after: { discordId: input.discordId },
    });
  });
}
