import { describe, expect, it } from 'vitest';
import { matchWebRoute, WEB_ROUTES } from './routes.ts';

describe('matchWebRoute', () => {
  it('matches every path of the route table, the spec spelling included', () => {
    expect(matchWebRoute('/account/whitlist')?.name).toBe('Liste blanche');
    expect(matchWebRoute('/account/whitelist')).toBeUndefined();
    expect(matchWebRoute('/admin/users/0190d8d2-1b2c-7def-8abc-1234567890ab')?.path).toBe('/admin/users/:id');
    expect(matchWebRoute('/admin/users/')?.path).toBe('/admin/users');
    for (const route of WEB_ROUTES)
      if (!route.path.includes(':')) expect(matchWebRoute(route.path)).toBe(route);
  });

  it('refuses paths outside the table', () => {
    expect(matchWebRoute('/nope')).toBeUndefined();
    expect(matchWebRoute('/admin/users/1/extra')).toBeUndefined();
    expect(matchWebRoute('/api/healthz')).toBeUndefined();
  });

  it('guards /account/mybot with both bot permissions', () => {
    expect(matchWebRoute('/account/mybot')?.permissions).toEqual(['can_useGathering', 'can_useTreasure']);
  });
});
