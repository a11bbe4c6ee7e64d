/**
 * Every date people read or type, one rule: French words, the viewer's own time zone (the browser's),
 * the zone named where several people compare times (audit, payments). Formatters are built once.
 */
const french = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('fr-FR', options);

export const dateShort = french({ dateStyle: 'short' });
export const dateMedium = french({ dateStyle: 'medium' });
export const dateLong = french({ dateStyle: 'long' });
export const dateTimeShort = french({ dateStyle: 'short', timeStyle: 'short' });
export const dateTimeMedium = french({ dateStyle: 'medium', timeStyle: 'short' });
export const dateTimeLong = french({ dateStyle: 'long', timeStyle: 'short' });
/** With seconds: live supervision (last sign of life, connected since). */
export const dateTimeSeconds = french({ dateStyle: 'short', timeStyle: 'medium' });
export const timeSeconds = french({ timeStyle: 'medium' });
export const hourMinute = french({ hour: '2-digit', minute: '2-digit' });
export const dayMonth = french({ day: 'numeric', month: 'short' });

/** The viewer's time zone, e.g. "Europe/Paris". */
export const viewerTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

function toDate(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "23/11/2026 09:15", or "—" without a date. */
export function formatDateTime(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateTimeShort.format(date) : '—';
}

/** "23 nov. 2026", or "—" without a date. */
export function formatDate(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateMedium.format(date) : '—';
}

/** `<input type="datetime-local">` value (the viewer's time) <-> ISO string. */
export function toLocalInput(iso: string | null | undefined): string {
  const date = toDate(iso);
  if (!date) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
export function fromLocalInput(value: string): string | null {
  return toDate(value)?.toISOString() ?? null;
}
