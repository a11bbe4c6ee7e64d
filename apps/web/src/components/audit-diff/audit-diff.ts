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

/** Field-by-field difference of two JSON values (objects compared one level deep). */
export function diffValues(before: unknown, after: unknown): DiffLine[] {
  if (!isRecord(before) && !isRecord(after)) {
    if (before === null && after === null) return [];
    return [{ key: 'valeur', before, after, kind: kindOf(before, after) }];
  }
  const left = isRecord(before) ? before : {};
  const right = isRecord(after) ? after : {};
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])];
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

/** A value as shown in the diff. */
export function formatValue(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return 'vide';
  if (typeof value === 'boolean') return value ? 'oui' : 'non';
  if (typeof value === 'string') return value === '' ? '« »' : value;
  if (Array.isArray(value)) return value.length ? value.map((item) => formatValue(item)).join(', ') : 'aucun';
  return JSON.stringify(value);
}

/** One-line summary for a list cell: `isSnow: non → oui, …`. */
export function summarizeDiff(before: unknown, after: unknown, max = 3): string {
  const lines = diffValues(before, after).filter((line) => line.kind !== 'same');
  if (lines.length === 0) return '';
  const shown = lines
    .slice(0, max)
    .map((line) =>
      line.kind === 'added'
        ? `${line.key}: ${formatValue(line.after)}`
        : `${line.key}: ${formatValue(line.before)} → ${formatValue(line.after)}`,
    );
  return lines.length > max ? `${shown.join(' · ')} · …` : shown.join(' · ');
}
