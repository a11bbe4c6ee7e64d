export { auditChangeColumns } from './audit-columns.ts';
export { auditTargetText, summarizeDiff } from './audit-diff.ts';
export { AuditDiffView } from './audit-diff-view.tsx';
