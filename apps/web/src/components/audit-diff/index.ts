export { summarizeDiff } from './audit-diff.ts';
export { AuditDiffView } from './audit-diff-view.tsx';
