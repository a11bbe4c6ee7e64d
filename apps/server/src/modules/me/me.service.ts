import { type AppContext, inTransaction } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { revokeBotSessions, unbindPc } from '../bots/bots.service.ts';
import { getSettings } from '../settings/settings.service.ts';
import { lockUser, rotateBotKey, updateDiscordId } from '../users/users.service.ts';

const HOUR_MS = 3_600_000;

/** When the user may unbind their PC again. */
async function getNextHwidResetAt(ctx: AppContext, hwidResetAt: Date | null): Promise<Date> {
  const { hwidResetCooldownHours } = await getSettings(ctx);
  return new Date((hwidResetAt?.getTime() ?? 0) + hwidResetCooldownHours * HOUR_MS);
}

function cooldownRefusal(nextAllowed: Date): AppError {
  const when = nextAllowed.toLocaleString('fr-FR', {
    timeZone: 'Europe/Paris',
    dateStyle: 'short',
    timeStyle: 'short',
  });
  return new AppError('HWID_RESET_COOLDOWN', {
    message: `Vous avez déjà délié votre PC récemment. Prochaine réinitialisation possible le ${when} (heure de Paris).`,
    retryAfter: Math.ceil((nextAllowed.getTime() - Date.now()) / 1000),
    details: { nextResetAt: nextAllowed.toISOString() },
  });
}

/**
 * The customer unbinds their own PC, at most once per cooldown (a setting); answers when they may
 * do it again. One transaction: the binding, the bot sessions and the audit entry (`unbindPc`).
 */
export function resetHwid(ctx: AppContext, input: { userId: string; ip: string | null }): Promise<Date> {
  return inTransaction(ctx, async (tx) => {
    const user = await lockUser(tx, input.userId);
    const { hwid } = user;
    if (!hwid) throw new AppError('HWID_NOT_BOUND');
    const nextAllowed = await getNextHwidResetAt(tx, user.hwidResetAt);
    if (nextAllowed.getTime() > Date.now()) throw cooldownRefusal(nextAllowed);
    const now = new Date();
    await unbindPc(tx, {
      user: { ...user, hwid },
      actor: { id: user.id, username: user.username, ip: input.ip },
      resetAt: now,
    });
    return getNextHwidResetAt(tx, now);
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
    tx.events.emit('user.changed', { userId: user.id });
  });
}
