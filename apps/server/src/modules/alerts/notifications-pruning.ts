import { lt } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { getSettings } from '../settings/index.ts';
import { notifications } from './alerts.table.ts';

const DAY_MS = 86_400_000;

/**
 * Deletes the in-app notifications older than `notificationRetentionDays` (decision 907), read or
 * not; run by the loop « purge des notifications ». Answers how many went.
 */
export async function pruneNotifications(ctx: AppContext, now = new Date()): Promise<number> {
  const { notificationRetentionDays } = await getSettings(ctx);
  const before = new Date(now.getTime() - notificationRetentionDays * DAY_MS);
  const removed = await ctx.db
    .delete(notifications)
    .where(lt(notifications.createdAt, before))
    .returning({ id: notifications.id });
  return removed.length;
}
