export { formatDate, formatDateTime, fromLocalInput, toLocalInput } from '../../lib/dates.ts';
export { AdminTable, adminTableKey } from './admin-table.tsx';
export { listSearchParams } from './list-params.ts';
export { useRowDialogs } from './use-row-dialogs.ts';
