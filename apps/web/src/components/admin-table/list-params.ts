import type { GridSortModel } from '@mui/x-data-grid';

export type AdminFilters = Record<string, string | number | boolean | null | undefined>;

/** `?page=&pageSize=&sort=&q=&<filters>` of a list request (empty values left out). */
export function listSearchParams(input: {
  page?: number;
  pageSize?: number;
  sort?: string;
  q?: string;
  filters?: AdminFilters;
}): URLSearchParams {
  const params = new URLSearchParams();
  if (input.page !== undefined) params.set('page', String(input.page));
  if (input.pageSize !== undefined) params.set('pageSize', String(input.pageSize));
  if (input.sort) params.set('sort', input.sort);
  if (input.q?.trim()) params.set('q', input.q.trim());
  for (const [key, value] of Object.entries(input.filters ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  return params;
}

/** Grid sort model <-> server `sort` (`field` or `-field`). */
export function sortParamOf(model: GridSortModel): string | undefined {
  const [first] = model;
  if (!first?.sort) return undefined;
  return first.sort === 'desc' ? `-${first.field}` : first.field;
}
export function sortModelOf(sort: string | undefined): GridSortModel {
  if (!sort) return [];
  return sort.startsWith('-') ? [{ field: sort.slice(1), sort: 'desc' }] : [{ field: sort, sort: 'asc' }];
}

/**
 * The grid's row count for a list answer. Past a threshold the server estimates large totals
 * (`totalIsEstimate`, docs/decisions/405): the grid then shows "environ N" and offers a next page
 * while the current one is full.
 */
export function gridRowCount(
  answer: { data: unknown[]; total: number; totalIsEstimate?: boolean } | undefined,
  pageSize: number,
): { rowCount: number; estimatedRowCount?: number; paginationMeta?: { hasNextPage: boolean } } {
  if (!answer) return { rowCount: 0 };
  if (!answer.totalIsEstimate) return { rowCount: answer.total };
  return {
    rowCount: -1,
    estimatedRowCount: answer.total,
    paginationMeta: { hasNextPage: answer.data.length === pageSize },
  };
}
