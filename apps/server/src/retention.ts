import { sql } from 'drizzle-orm';
import type { AppContext } from './context.ts';
import { pruneSentDiscordMessages } from './modules/alerts/index.ts';
import { pruneAuditLog } from './modules/audit/index.ts';
import { pruneUserTokens } from './modules/auth/index.ts';
import { pruneBotEvents, pruneBotHistory, pruneBotSessions } from './modules/bots/index.ts';
import { pruneBotCommands } from './modules/commands/index.ts';
import { pruneSentMails } from './modules/mail/index.ts';
import { prunePaymentEvents, pruneWebhookCalls } from './modules/payments/index.ts';
import { pruneVersionSamples } from './modules/releases/index.ts';
import { getSettings } from './modules/settings/index.ts';

/** How often the tables that only grow are pruned (each run deletes in bounded batches). */
export const RETENTION_PRUNE_EVERY_MS = 15 * 60_000;

type Prune = (ctx: AppContext, now: Date) => Promise<number>;

/**
 * The tables that only grow, each pruned by the module that owns it past its own retention setting
 * (docs/capacity.md, "Retention"). The bots' journals and the notifications have loops of their own
 * (decisions 209 and 907).
 */
const PRUNES: readonly [table: string, prune: Prune][] = [
  ['bot_events', pruneBotEvents],
  ['bot_sessions', pruneBotSessions],
  ['bot_commands', pruneBotCommands],
  ['bot_activity_minutes', pruneBotHistory],
  ['mail_outbox', pruneSentMails],
  ['discord_outbox', pruneSentDiscordMessages],
  ['payment_webhook_calls', pruneWebhookCalls],
  ['payment_events', prunePaymentEvents],
  ['agent_version_samples', pruneVersionSamples],
  ['user_tokens', pruneUserTokens],
  [
    'audit_log',
    async (ctx, now) => pruneAuditLog(ctx, { days: (await getSettings(ctx)).auditRetentionDays, now }),
  ],
];

/**
 * The embedded database has no autovacuum: the space of deleted rows is reused only once a VACUUM
 * has marked it free, so without one a pruned table would grow all the same. Once a day at most per
 * table (a vacuum reads the table's indexes whole and holds the event loop while it runs).
 */
const VACUUM_EVERY_MS = 24 * 3_600_000;
const vacuumedAt = new WeakMap<AppContext, Map<string, number>>();

async function vacuumEmbedded(ctx: AppContext, table: string, now: Date): Promise<void> {
  if (ctx.engine !== 'pglite') return;
  const tables = vacuumedAt.get(ctx) ?? new Map<string, number>();
  vacuumedAt.set(ctx, tables);
  if (now.getTime() - (tables.get(table) ?? 0) < VACUUM_EVERY_MS) return;
  tables.set(table, now.getTime());
  await ctx.db.execute(sql.raw(`vacuum ${table}`));
}

/**
 * One run of the loop « purge des données anciennes »: each table in turn, one failing never
 * stopping the others (its failure is logged under its name). Answers the rows deleted per table.
 */
export async function pruneOldRows(ctx: AppContext, now = new Date()): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const [table, prune] of PRUNES) {
    try {
      deleted[table] = await prune(ctx, now);
      if (deleted[table] > 0) await vacuumEmbedded(ctx, table, now);
    } catch (error) {
      ctx.log.warn({ err: error, table }, `purge de ${table} en échec : nouvel essai au prochain tour`);
    }
  }
  const total = Object.values(deleted).reduce((sum, rows) => sum + rows, 0);
  if (total > 0) ctx.log.info({ deleted }, `purge des données anciennes : ${total} lignes supprimées`);
  return deleted;
}
