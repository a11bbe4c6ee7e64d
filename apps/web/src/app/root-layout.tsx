import { isStaff } from '@bot/contracts';
import { type ComponentType, lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import {
  isOpenDuringMaintenance,
  MaintenancePage,
  SiteBanner,
  usePublicSettings,
} from '../features/settings/index.ts';
import { useAuthStore } from '../lib/auth-store.ts';

/** Loaded only when it snows; a failed load just means no snow. */
const Snow = lazy<ComponentType>(() =>
  import('../features/settings/components/snow.tsx').then(
    (module) => ({ default: module.Snow }),
    () => ({ default: () => null }),
  ),
);

/** Above every layout: navigation progress, public settings (banner, snow). */
export function RootLayout() {
  const navigation = useNavigation();
  const settings = usePublicSettings((state) => state.settings);
  const isSnow = useAuthStore((state) => state.isSnow);
  const { pathname } = useLocation();
  const isStaffMember = useAuthStore((state) =>
    isStaff({
      isAdministrator: state.user?.Policy.IsAdministrator === true,
      permissions: state.permissions,
    }),
  );
  const isInMaintenance =
    settings?.maintenanceMode === true && !isStaffMember && !isOpenDuringMaintenance(pathname);

  return (
    <>
      {navigation.state === 'loading' ? (
        <div className="nav-progress" role="progressbar" aria-label="Chargement" />
      ) : null}
      {/* The maintenance page says it all: no banner repeating its message or an announcement over it. */}
      {isInMaintenance ? (
        <MaintenancePage message={settings?.maintenanceMessage ?? ''} />
      ) : (
        <>
          {/* In the admin area staff get their own "Maintenance active" status instead. */}
          <SiteBanner settings={settings} showMaintenance={!pathname.startsWith('/admin')} />
          <Outlet />
        </>
      )}
      {/* Decoration for visitors and customers; staff work on the admin area and the map undisturbed. */}
      {isSnow && !pathname.startsWith('/admin') ? (
        <Suspense fallback={null}>
          <Snow />
        </Suspense>
      ) : null}
      <ScrollRestoration />
    </>
  );
}
