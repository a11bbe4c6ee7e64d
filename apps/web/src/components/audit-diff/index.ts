export { type DiffLine, diffValues, formatValue, summarizeDiff } from './audit-diff.ts';
export { AuditDiffView } from './audit-diff-view.tsx';
