import { describe, expect, it } from 'vitest';
import { gridRowCount, listSearchParams, sortModelOf, sortParamOf } from './list-params.ts';

describe('admin list params', () => {
  it('maps page, size, sort, search and filters to the query string, leaving empty values out', () => {
    const params = listSearchParams({
      page: 2,
      pageSize: 50,
      sort: '-createdAt',
      q: '  bob ',
      filters: { status: 'banned', roleId: undefined, empty: '', none: null, online: false },
    });
    expect(params.toString()).toBe('page=2&pageSize=50&sort=-createdAt&q=bob&status=banned&online=false');
    expect(listSearchParams({ q: '   ' }).toString()).toBe('');
  });

  it('turns the grid sort model into the server syntax and back', () => {
    expect(sortParamOf([{ field: 'username', sort: 'asc' }])).toBe('username');
    expect(sortParamOf([{ field: 'createdAt', sort: 'desc' }])).toBe('-createdAt');
    expect(sortParamOf([])).toBeUndefined();
    expect(sortModelOf('-createdAt')).toEqual([{ field: 'createdAt', sort: 'desc' }]);
    expect(sortModelOf('name')).toEqual([{ field: 'name', sort: 'asc' }]);
    expect(sortModelOf(undefined)).toEqual([]);
  });

  it('shows an estimated total as an estimate, with a next page while the page is full', () => {
    expect(gridRowCount(undefined, 25)).toEqual({ rowCount: 0 });
    expect(gridRowCount({ data: [1, 2], total: 2 }, 25)).toEqual({ rowCount: 2 });
    const full = Array.from({ length: 25 }, (_, index) => index);
    expect(gridRowCount({ data: full, total: 98_000, totalIsEstimate: true }, 25)).toEqual({
      rowCount: -1,
      estimatedRowCount: 98_000,
      paginationMeta: { hasNextPage: true },
    });
    expect(gridRowCount({ data: [1], total: 98_000, totalIsEstimate: true }, 25).paginationMeta).toEqual({
      hasNextPage: false,
    });
  });
});
