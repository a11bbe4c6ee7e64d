export { AdminTable, type AdminTableProps, adminTableKey, downloadCsv } from './admin-table.tsx';
export { type AdminFilters, listSearchParams, sortModelOf, sortParamOf } from './list-params.ts';
