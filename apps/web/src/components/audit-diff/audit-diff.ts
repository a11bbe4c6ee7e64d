import {
  AUDIT_FIELD_LABELS,
  AUDIT_VALUE_LABELS,
  auditFieldLabel,
  countOf,
  formatFileSize,
  formatPrice,
  permissionLabel,
} from '@bot/contracts';
import { formatDateTime } from '../../lib/dates.ts';

/** One changed field between an audit entry's before and after. */
export interface DiffLine {
  key: string;
  before: unknown;
  after: unknown;
  kind: 'added' | 'removed' | 'changed' | 'same';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Internal identifiers: kept in the detail for who needs them, after what people read. */
const IDENTIFIER_FIELDS = new Set(['id', 'grantId', 'sessionId', 'sessionIds', 'packageId', 'providerRef']);
/** Fields in the dictionary's order (the database hands JSON keys back in its own order), unknown ones next. */
const FIELD_ORDER = new Map(Object.keys(AUDIT_FIELD_LABELS).map((key, index) => [key, index]));
const rankOf = (key: string) =>
  IDENTIFIER_FIELDS.has(key) ? Number.MAX_SAFE_INTEGER : (FIELD_ORDER.get(key) ?? FIELD_ORDER.size);
const byReadingOrder = (a: string, b: string) => rankOf(a) - rankOf(b);

/** Field-by-field difference of two JSON values (objects compared one level deep), in reading order. */
export function diffValues(before: unknown, after: unknown): DiffLine[] {
  if (!isRecord(before) && !isRecord(after)) {
    if (before === null && after === null) return [];
    return [{ key: 'valeur', before, after, kind: kindOf(before, after) }];
  }
  const left = isRecord(before) ? before : {};
  const right = isRecord(after) ? after : {};
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort(byReadingOrder);
  return keys.map((key) => ({
    key,
    before: left[key],
    after: right[key],
    kind: kindOf(left[key], right[key]),
  }));
}

function kindOf(before: unknown, after: unknown): DiffLine['kind'] {
  if (before === undefined || before === null)
    return after === undefined || after === null ? 'same' : 'added';
  if (after === undefined || after === null) return 'removed';
  return JSON.stringify(before) === JSON.stringify(after) ? 'same' : 'changed';
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** Fields whose values are permission names (a grant, a role's list, what a package gives). */
const PERMISSION_FIELDS = new Set(['permission', 'permissions', 'grants']);
const MONEY_FIELDS = new Set(['priceCents', 'amountCents', 'discountCents', 'amountOffCents']);
/** An end left empty means "no end", not "unknown". */
const END_FIELDS = new Set(['expiresAt', 'endsAt']);
const integers = new Intl.NumberFormat('fr-FR');

/**
 * A value as people read it in an audit detail, in French: the field (`key`) decides what it means
 * (permission, price, duration, status...); dates in the viewer's time, never ISO; never JSON.
 */
export function formatValue(value: unknown, key = ''): string {
  if (value === undefined) return '—';
  if (value === null) return END_FIELDS.has(key) ? 'Sans fin' : 'Vide';
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non';
  if (typeof value === 'number') return formatNumber(value, key);
  if (typeof value === 'string') return formatText(value, key);
  if (Array.isArray(value))
    return value.length ? value.map((item) => formatValue(item, key)).join(', ') : 'Aucun';
  if (isRecord(value)) return formatRecord(value, key);
  return String(value);
}

function formatNumber(value: number, key: string): string {
  if (MONEY_FIELDS.has(key)) return formatPrice(value);
  if (key === 'durationDays') return countOf(value, 'jour', 'jours');
  if (key === 'percentOff') return `${integers.format(value)} %`;
  if (key === 'size') return formatFileSize(value);
  return integers.format(value);
}

function formatText(value: string, key: string): string {
  if (value === '') return 'Vide';
  if (PERMISSION_FIELDS.has(key)) return permissionLabel(value);
  const named = AUDIT_VALUE_LABELS[key]?.[value];
  if (named) return named;
  return ISO_DATE_TIME.test(value) ? formatDateTime(value) : value;
}

/** A reference to someone or something reads as its name; any other object as "Field : value" pairs. */
function formatRecord(value: Record<string, unknown>, key: string): string {
  if (typeof value.username === 'string') return value.username;
  // A game account of a bot's configuration (`configure`): its name, and whether it runs.
  if (key === 'accounts' && typeof value.name === 'string' && typeof value.enabled === 'boolean') {
    const route = typeof value.routeId === 'string' ? `, itinéraire ${value.routeId}` : '';
    return `${value.name} (${value.enabled ? 'actif' : 'arrêté'}${route})`;
  }
  if (typeof value.name === 'string') return value.name;
  const entries = Object.entries(value);
  if (entries.length === 0) return 'Aucun';
  return entries.map(([key, item]) => `${auditFieldLabel(key)} : ${formatValue(item, key)}`).join(', ');
}

/** One-line summary for a list cell, identifiers left out: `Affichage de la neige : Non → Oui · …`. */
export function summarizeDiff(before: unknown, after: unknown, max = 3): string {
  const lines = diffValues(before, after).filter(
    (line) => line.kind !== 'same' && !IDENTIFIER_FIELDS.has(line.key),
  );
  if (lines.length === 0) return '';
  const shown = lines.slice(0, max).map((line) => {
    const label = auditFieldLabel(line.key);
    return line.kind === 'added'
      ? `${label} : ${formatValue(line.after, line.key)}`
      : `${label} : ${formatValue(line.before, line.key)} → ${formatValue(line.after, line.key)}`;
  });
  return lines.length > max ? `${shown.join(' · ')} · …` : shown.join(' · ');
}

/**
 * The target of an audit entry as people read it. A settings change is stored with the keys it
 * changed ("maintenanceMode, announcement"): they read as their labels ("Mode maintenance, Bannière
 * d'annonce"), on the dashboard as in the audit list.
 */
export function auditTargetText(entry: { targetType: string | null; targetLabel: string | null }) {
  if (entry.targetType === 'settings' && entry.targetLabel) {
    return entry.targetLabel
      .split(',')
      .map((key) => auditFieldLabel(key.trim()))
      .join(', ');
  }
  return entry.targetLabel;
}
