import { matchWebRoute, type WebRoute } from '@bot/contracts';
import { createBrowserRouter, type RouteObject } from 'react-router';
import NotFoundPage from '../components/errors/not-found-page.tsx';
import { isChunkLoadError } from '../features/build-update/index.ts';
import LandingPage from '../features/landing/pages/landing-page.tsx';
import { reloadPageOnce } from '../lib/reload-guard.ts';
import { whenRuntimeConfig } from '../lib/runtime-config.ts';
import { guardLoader } from './guards/guard-loader.ts';
import { staffTwoFactorGate } from './guards/staff-two-factor-gate.ts';
import { LandingLayout } from './layouts/landing-layout.tsx';
import { RootErrorBoundary } from './root-error-boundary.tsx';
import { RootLayout } from './root-layout.tsx';

/** The route table entry of a path: guards come from @bot/contracts WEB_ROUTES, never from here. */
function tableEntry(path: string): WebRoute {
  const route = matchWebRoute(path);
  if (!route || route.path !== path) throw new Error(`Route absente de WEB_ROUTES : ${path}`);
  return route;
}

type PageModule = Promise<{ default: React.ComponentType }>;

/** Resolves never: keeps the current page (and URL) while the tab reloads. */
const untilReload = () => new Promise<never>(() => {});

/**
 * Every page but the home page is its own chunk, so each page downloads only what it uses. A chunk
 * that fails to load reloads the tab on the page the user was on (behind the 10 s reload guard); when
 * the guard refuses, the error reaches the error view.
 */
function lazyComponent(load: () => PageModule) {
  return async () => {
    let module: Awaited<PageModule> | undefined;
    try {
      module = await load();
    } catch (error) {
      if (isChunkLoadError(error) && reloadPageOnce('module introuvable')) return untilReload();
      throw error;
    }
    // Undefined when the vite:preloadError listener has already started a reload.
    if (!module) return untilReload();
    return { Component: module.default };
  };
}

/** A lazily loaded page guarded by its route table entry. */
function page(path: string, load: () => PageModule, extra: Partial<RouteObject> = {}): RouteObject {
  const entry = tableEntry(path);
  const relative = path.split('/').slice(2).join('/');
  return {
    ...(relative ? { path: relative } : { index: true }),
    handle: { title: entry.name },
    // The layout's loader already checks the session; pages with permissions ask the server.
    ...(entry.permissions.length > 0 ? { loader: guardLoader(entry) } : {}),
    lazy: lazyComponent(load),
    ...extra,
  } as RouteObject;
}

const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootLayout />,
    // Shown while the first page's guard or lazy chunk loads (index.html already paints the dark background).
    hydrateFallbackElement: <div className="nav-progress" role="progressbar" aria-label="Chargement" />,
    errorElement: <RootErrorBoundary />,
    children: [
      {
        element: <LandingLayout />,
        children: [
          { index: true, element: <LandingPage /> },
          {
            // The MUI theme, loaded with the public pages drawn with MUI's components.
            lazy: lazyComponent(() => import('./layouts/mui-theme-layout.tsx')),
            children: [
              { path: 'login', lazy: lazyComponent(() => import('../features/auth/pages/login-page.tsx')) },
              {
                path: 'register',
                lazy: lazyComponent(() => import('../features/auth/pages/register-page.tsx')),
              },
              {
                path: 'forgot-password',
                lazy: lazyComponent(() => import('../features/auth/pages/forgot-password-page.tsx')),
              },
              {
                path: 'started',
                lazy: lazyComponent(() => import('../features/landing/pages/started-page.tsx')),
              },
            ],
          },
        ],
      },
      {
        path: 'account',
        lazy: lazyComponent(() => import('./layouts/account-layout.tsx')),
        // The signed-in areas read the runtime config synchronously (socket URL, links): it is in
        // before their pages render (main.tsx does not wait for it).
        loader: async (args) => {
          await whenRuntimeConfig();
          return guardLoader({ ...tableEntry('/account'), permissions: [] })(args);
        },
        children: [
          page('/account', () => import('../features/account/pages/account-page.tsx')),
          page('/account/marketplace', () => import('../features/marketplace/pages/marketplace-page.tsx')),
          page('/account/mybot', () => import('../features/mybot/pages/mybot-page.tsx')),
          page('/account/payments', () => import('../features/payments/pages/payments-page.tsx')),
          page('/account/whitlist', () => import('../features/whitelist/pages/whitelist-page.tsx')),
          page(
            '/account/notifications',
            () => import('../features/notifications/pages/notifications-page.tsx'),
          ),
        ],
      },
      {
        path: 'admin',
        // The admin layout needs a session (and two-factor where staff must have it); each page then
        // asks the server for its own permission.
        loader: async (args) => {
          await whenRuntimeConfig();
          await guardLoader({ ...tableEntry('/admin'), permissions: [] })(args);
          return staffTwoFactorGate();
        },
        lazy: lazyComponent(() => import('./layouts/admin-layout.tsx')),
        children: [
          page('/admin', () => import('../features/admin-dashboard/pages/dashboard-page.tsx')),
          page('/admin/audit', () => import('../features/admin-audit/pages/audit-page.tsx')),
          page('/admin/map', () => import('../features/admin-map/pages/map-page.tsx')),
          page('/admin/package', () => import('../features/admin-packages/pages/packages-page.tsx')),
          page('/admin/payments', () => import('../features/admin-payments/pages/payments-page.tsx')),
          page('/admin/permission', () => import('../features/admin-permissions/pages/permissions-page.tsx')),
          page('/admin/role', () => import('../features/admin-roles/pages/roles-page.tsx')),
          page('/admin/releases', () => import('../features/admin-releases/pages/releases-page.tsx')),
          page('/admin/route', () => import('../features/admin-routes/pages/routes-page.tsx')),
          page('/admin/settings', () => import('../features/admin-settings/pages/settings-page.tsx')),
          page('/admin/users', () => import('../features/admin-users/pages/users-page.tsx')),
          page('/admin/users/:id', () => import('../features/admin-users/pages/user-page.tsx')),
          page(
            '/admin/usersOnline',
            () => import('../features/admin-users-online/pages/users-online-page.tsx'),
          ),
          page('/admin/vouchers', () => import('../features/admin-vouchers/pages/vouchers-page.tsx')),
          page('/admin/whitelist', () => import('../features/admin-whitelist/pages/whitelist-page.tsx')),
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
