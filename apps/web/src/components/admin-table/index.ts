export { AdminTable, adminTableKey } from './admin-table.tsx';
export { formatDate, formatDateTime, fromLocalInput, toLocalInput } from './format.ts';
export { listSearchParams } from './list-params.ts';
