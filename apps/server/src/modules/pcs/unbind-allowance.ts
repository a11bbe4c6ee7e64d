import type { HwidResetAllowance } from '@bot/contracts';
import type { AppContext } from '../../context.ts';
import { listOwnActionsSince } from '../audit/index.ts';
import { getSettings } from '../settings/index.ts';

const HOUR_MS = 3_600_000;
/** The window the self-service unbind cap (`hwidResetsPerMonth`) counts over. */
const HWID_RESET_WINDOW_DAYS = 30;
const WINDOW_MS = HWID_RESET_WINDOW_DAYS * 24 * HOUR_MS;

/**
 * What spends one of the customer's unbinds (decision 906): their own reset from the account page,
 * and their bound PC changed too much since its reference (`bindOrRecognisePc`), which counts as an
 * unbind and a new binding. Staff resets are audited under the staff member and never count.
 */
const COUNTED_UNBIND_ACTIONS = ['user.hwid_reset', 'user.hwid_rebound'] as const;

/**
 * When the cooldown (`hwidResetCooldownHours`) lets the user spend their next unbind: now when none
 * was spent or the cooldown is over (the contract's "in the past: now"; the epoch plus the cooldown
 * read as a date in 1970 on the account page).
 */
export async function getNextHwidResetAt(ctx: AppContext, hwidResetAt: Date | null): Promise<Date> {
  const now = Date.now();
  if (!hwidResetAt) return new Date(now);
  const { hwidResetCooldownHours } = await getSettings(ctx);
  return new Date(Math.max(now, hwidResetAt.getTime() + hwidResetCooldownHours * HOUR_MS));
}

/**
 * How many unbinds the user has left over the last 30 days, counted from the audit trail (their
 * own `COUNTED_UNBIND_ACTIONS`), and when the next one is possible (the cooldown, and with none left
 * the day the oldest counted one leaves the window: `slotFreesAt`).
 */
export async function unbindAllowanceOf(
  ctx: AppContext,
  userId: string,
  hwidResetAt: Date | null,
): Promise<{ allowance: HwidResetAllowance; slotFreesAt: Date | undefined }> {
  const { hwidResetsPerMonth } = await getSettings(ctx);
  const since = new Date(Date.now() - WINDOW_MS);
  const used: Date[] = [];
  // One query after the other: inside the caller's transaction they share one connection.
  for (const action of COUNTED_UNBIND_ACTIONS) {
    used.push(...(await listOwnActionsSince(ctx, { userId, action, since })));
  }
  used.sort((a, b) => a.getTime() - b.getTime());
  const remaining = Math.max(0, hwidResetsPerMonth - used.length);
  // With none left, the next one comes when enough of the counted ones leave the 30 days.
  const freeing = remaining === 0 ? used[Math.max(0, used.length - hwidResetsPerMonth)] : undefined;
  const slotFreesAt = new Date((freeing ?? new Date()).getTime() + (freeing ? WINDOW_MS : 0));
  const cooldownEndsAt = await getNextHwidResetAt(ctx, hwidResetAt);
  const nextResetAt = new Date(
    Math.max(cooldownEndsAt.getTime(), remaining === 0 ? slotFreesAt.getTime() : 0),
  );
  return {
    allowance: {
      limit: hwidResetsPerMonth,
      used: used.length,
      remaining,
      windowDays: HWID_RESET_WINDOW_DAYS,
      nextResetAt: nextResetAt.toISOString(),
    },
    slotFreesAt: remaining === 0 ? slotFreesAt : undefined,
  };
}

/**
 * What set the customer's `hwidResetAt` (what staff read on the user's page): their own unbind
 * (`unbind`) or their PC changed too much since it was bound (`pc_changed`, decision 906); null
 * when neither happened. Staff resets leave `hwidResetAt` as it was.
 */
export async function lastCountedUnbindKind(
  ctx: AppContext,
  userId: string,
  hwidResetAt: Date | null,
): Promise<'unbind' | 'pc_changed' | null> {
  if (!hwidResetAt) return null;
  // The audit entry's time is the transaction's, a little before `hwidResetAt`: the latest of the
  // two kinds around it says which one set it.
  const since = new Date(hwidResetAt.getTime() - 60_000);
  const latest = async (action: (typeof COUNTED_UNBIND_ACTIONS)[number]) =>
    (await listOwnActionsSince(ctx, { userId, action, since })).at(-1)?.getTime() ?? -1;
  const reset = await latest('user.hwid_reset');
  const rebound = await latest('user.hwid_rebound');
  return rebound > reset ? 'pc_changed' : 'unbind';
}
