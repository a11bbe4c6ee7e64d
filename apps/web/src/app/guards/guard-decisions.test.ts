import { matchWebRoute, WEB_ROUTES } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_DENIED_MESSAGE,
  canSeeRoute,
  decideAfterCheck,
  decideBeforeCheck,
  homeAfterLogin,
  loginRedirect,
  safeRedirectTarget,
} from './guard-decisions.ts';

const route = (path: string) => {
  const found = matchWebRoute(path);
  if (!found) throw new Error(path);
  return found;
};

describe('decideBeforeCheck', () => {
  it('lets everyone through public pages', () => {
    for (const path of ['/', '/login', '/register', '/forgot-password', '/started']) {
      expect(decideBeforeCheck(route(path), { isConnected: false }, path)).toEqual({ kind: 'allow' });
    }
  });

  it('sends anonymous visitors of account and admin pages to /login, remembering where they were', () => {
    expect(
      decideBeforeCheck(route('/account/payments'), { isConnected: false }, '/account/payments?page=2'),
    ).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Faccount%2Fpayments%3Fpage%3D2',
    });
    expect(decideBeforeCheck(route('/admin/users/42'), { isConnected: false }, '/admin/users/42')).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fadmin%2Fusers%2F42',
    });
  });

  it('lets a signed-in user into account pages without permissions', () => {
    expect(decideBeforeCheck(route('/account'), { isConnected: true }, '/account')).toEqual({
      kind: 'allow',
    });
    expect(decideBeforeCheck(route('/account/whitlist'), { isConnected: true }, '/account/whitlist')).toEqual(
      {
        kind: 'allow',
      },
    );
  });

  it('asks the server for /account/mybot with both bot permissions', () => {
    expect(decideBeforeCheck(route('/account/mybot'), { isConnected: true }, '/account/mybot')).toEqual({
      kind: 'check',
      permissions: ['can_useGathering', 'can_useTreasure'],
    });
  });

  it('asks the server for the permission of every admin page', () => {
    for (const adminRoute of WEB_ROUTES.filter((entry) => entry.layout === 'admin')) {
      const step = decideBeforeCheck(adminRoute, { isConnected: true }, adminRoute.path);
      expect(step).toEqual({ kind: 'check', permissions: adminRoute.permissions });
      expect(adminRoute.permissions.length).toBe(1);
    }
  });
});

describe('decideAfterCheck', () => {
  it('allows on a positive answer', () => {
    expect(decideAfterCheck(route('/admin/audit'), true)).toEqual({ kind: 'allow' });
  });

  it('sends a refused user away from /admin with a message', () => {
    const outcome = decideAfterCheck(route('/admin/settings'), false);
    expect(outcome).toEqual({ kind: 'redirect', to: '/account', message: ACCESS_DENIED_MESSAGE });
  });

  it('sends a user without a bot package from /account/mybot to the marketplace', () => {
    const outcome = decideAfterCheck(route('/account/mybot'), false);
    // An expected state explained (what to buy), not an error.
    expect(outcome).toMatchObject({ kind: 'redirect', to: '/account/marketplace', isInformation: true });
    expect(outcome.kind === 'redirect' && outcome.message).toContain('les deux');
  });
});

describe('redirect targets', () => {
  it('builds the login path', () => {
    expect(loginRedirect('/')).toBe('/login');
    expect(loginRedirect('/account')).toBe('/login?redirect=%2Faccount');
  });

  it('follows only same-site paths after sign-in', () => {
    expect(safeRedirectTarget('/admin/map')).toBe('/admin/map');
    expect(safeRedirectTarget('/account?tab=1')).toBe('/account?tab=1');
    expect(safeRedirectTarget(null)).toBe('/account');
    expect(safeRedirectTarget('https://evil.example')).toBe('/account');
    expect(safeRedirectTarget('//evil.example/x')).toBe('/account');
    expect(safeRedirectTarget('/\\evil.example')).toBe('/account');
    expect(safeRedirectTarget('/login?redirect=/account')).toBe('/account');
  });
});

describe('canSeeRoute', () => {
  it('shows an admin page only with all its permissions', () => {
    expect(canSeeRoute(route('/admin/users'), ['can_manageUsers'])).toBe(true);
    expect(canSeeRoute(route('/admin/users'), ['can_manageMap'])).toBe(false);
    expect(canSeeRoute(route('/account/mybot'), ['can_useGathering'])).toBe(false);
  });
});

describe('homeAfterLogin', () => {
  it('sends staff who may enter the admin area there, everyone else to their account', () => {
    expect(homeAfterLogin({ isAdministrator: true, permissions: [] })).toBe('/admin');
    expect(
      homeAfterLogin({ isAdministrator: false, permissions: ['can_manageMap', 'can_manageUsers'] }),
    ).toBe('/admin');
    expect(homeAfterLogin({ isAdministrator: false, permissions: ['can_manageUsers'] })).toBe('/account');
    expect(homeAfterLogin({ isAdministrator: false, permissions: ['can_useGathering'] })).toBe('/account');
  });
});
