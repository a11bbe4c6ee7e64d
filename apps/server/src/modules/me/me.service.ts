import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { writeSecurityEvent } from '../audit/audit.service.ts';
import { getSettings } from '../settings/settings.service.ts';
import { getUserById, releaseHwid, rotateBotKey } from '../users/users.service.ts';

const HOUR_MS = 3_600_000;

/** When the user may unbind their PC again. */
async function getNextHwidResetAt(ctx: AppContext, hwidResetAt: Date | null): Promise<Date> {
  const { hwidResetCooldownHours } = await getSettings(ctx);
  return new Date((hwidResetAt?.getTime() ?? 0) + hwidResetCooldownHours * HOUR_MS);
}

/** Unbinds the user's bot PC, at most once per cooldown (a setting). Staff resets bypass the cooldown. */
export async function resetHwid(
  ctx: AppContext,
  input: {
    userId: string;
    ip: string | null;
    bypassCooldown?: boolean;
    actor?: { id: string; username: string };
  },
): Promise<Date> {
  const user = await getUserById(ctx, input.userId);
  if (!user.hwid) throw new AppError('HWID_NOT_BOUND');
  const nextAllowed = await getNextHwidResetAt(ctx, user.hwidResetAt);
  if (!input.bypassCooldown && nextAllowed.getTime() > Date.now()) {
    const when = nextAllowed.toLocaleString('fr-FR', {
      timeZone: 'Europe/Paris',
      dateStyle: 'short',
      timeStyle: 'short',
    });
    throw new AppError('HWID_RESET_COOLDOWN', {
      message: `Vous avez déjà délié votre PC récemment. Prochaine réinitialisation possible le ${when} (heure de Paris).`,
      retryAfter: Math.ceil((nextAllowed.getTime() - Date.now()) / 1000),
      details: { nextResetAt: nextAllowed.toISOString() },
    });
  }
  const now = new Date();
  await releaseHwid(ctx, user.id, input.bypassCooldown ? user.hwidResetAt : now);
  ctx.events.emit('hwid.reset', { userId: user.id, hwid: user.hwid });
  await writeSecurityEvent(ctx, {
    actor: { id: input.actor?.id ?? user.id, username: input.actor?.username ?? user.username, ip: input.ip },
    action: 'user.hwid_reset',
    target: { type: 'user', id: user.id, label: user.username },
    before: { hwid: user.hwid },
    after: { hwid: null },
  });
  return getNextHwidResetAt(ctx, input.bypassCooldown ? user.hwidResetAt : now);
}

/** Replaces the bot access key; bot sessions opened with the old one end. */
export async function rotateMyBotKey(
  ctx: AppContext,
  input: { userId: string; ip: string | null },
): Promise<string> {
  const user = await getUserById(ctx, input.userId);
  const accessKey = await rotateBotKey(ctx, user.id);
  ctx.events.emit('botKey.rotated', { userId: user.id });
  await writeSecurityEvent(ctx, {
    actor: { id: user.id, username: user.username, ip: input.ip },
    action: 'user.bot_key_rotated',
    target: { type: 'user', id: user.id, label: user.username },
  });
  return accessKey;
}
