export { AdminTable, type AdminTableProps, adminTableKey, downloadCsv } from './admin-table.tsx';
export { formatDate, formatDateTime, fromLocalInput, toLocalInput } from './format.ts';
export { type AdminFilters, listSearchParams, sortModelOf, sortParamOf } from './list-params.ts';
