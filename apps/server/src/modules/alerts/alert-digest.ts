import { APP_NAME } from '@bot/contracts';
import { and, inArray, isNull, lt } from 'drizzle-orm';
import type { TxContext } from '../../context.ts';
import { queueMail } from '../mail/index.ts';
import { users } from '../users/index.ts';
import { alertDigestEntries } from './alerts.table.ts';

const PARIS_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const PARIS_TIME = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  hour: '2-digit',
  minute: '2-digit',
});
const FRENCH_DAY = new Intl.DateTimeFormat('fr-FR', { timeZone: 'UTC', dateStyle: 'full' });

/** The calendar day in Paris (the platform's time zone), as YYYY-MM-DD. */
export function parisDay(at: Date): string {
  return PARIS_DAY.format(at);
}

const KIND_MARKS = { alert: 'Alerte', recovery: 'Rétabli', info: 'Info' } as const;

/**
 * The daily digests (decision 907): every user's e-mail alerts of a Paris day that is over leave as
 * one mail, at the first evaluation after midnight (Paris). The entries are deleted in the same
 * transaction that queues the mail: each is mailed exactly once. A user banned meanwhile gets none.
 */
export async function sendDueDigests(ctx: TxContext, now: Date): Promise<number> {
  const due = await ctx.db
    .delete(alertDigestEntries)
    .where(lt(alertDigestEntries.day, parisDay(now)))
    .returning();
  if (due.length === 0) return 0;
  const userIds = [...new Set(due.map((entry) => entry.userId))];
  const recipients = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.id, userIds), isNull(users.bannedAt)));
  for (const recipient of recipients) {
    const entries = due
      .filter((entry) => entry.userId === recipient.id)
      .sort((a, b) => a.at.getTime() - b.at.getTime());
    await queueMail(ctx, { to: recipient.email, ...digestMail(entries, ctx.config.publicUrl) });
  }
  return recipients.length;
}

type Entry = typeof alertDigestEntries.$inferSelect;

function digestMail(entries: Entry[], publicUrl: string) {
  const days = [...new Set(entries.map((entry) => entry.day))];
  const when = days.map((day) => FRENCH_DAY.format(new Date(`${day}T00:00:00Z`))).join(', ');
  const link = `${publicUrl}/account/notifications`;
  const line = (entry: Entry) =>
    `${PARIS_TIME.format(entry.at)} — ${KIND_MARKS[entry.kind]} — ${entry.title} : ${entry.body}`;
  const count = `${entries.length} message${entries.length > 1 ? 's' : ''}`;
  const why =
    'Vous recevez ce résumé parce que vous avez choisi le résumé quotidien de vos alertes par e-mail.';
  return {
    subject: `[${APP_NAME}] Résumé de vos alertes du ${when}`,
    text: `${count} (heure de Paris) :\n\n${entries.map(line).join('\n')}\n\nVos notifications : ${link}\n${why}`,
    html: `<p>${count} (heure de Paris) :</p><ul>${entries.map((entry) => `<li>${escapeHtml(line(entry))}</li>`).join('')}</ul><p><a href="${link}">Voir mes notifications</a></p><p>${why}</p>`,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
