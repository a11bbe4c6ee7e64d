import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { usePublicSettings } from '../features/settings/api/public-settings.ts';
import { SiteBanner } from '../features/settings/components/site-banner.tsx';
import { Snow } from '../features/settings/components/snow.tsx';
import { useAuthStore } from '../lib/auth-store.ts';

/** Above every layout: navigation progress, public settings (banner, snow). */
export function RootLayout() {
  const navigation = useNavigation();
  const settings = usePublicSettings((state) => state.settings);
  const isSnow = useAuthStore((state) => state.isSnow);

  return (
    <>
      {navigation.state === 'loading' ? (
        <div className="nav-progress" role="progressbar" aria-label="Chargement" />
      ) : null}
      <SiteBanner settings={settings} />
      <Outlet />
      {isSnow ? <Snow /> : null}
      <ScrollRestoration />
    </>
  );
}
