// zod's validation messages in French for the forms of this area (docs/decisions/103).
import '@bot/contracts/zod-locale';
import { WEB_ROUTES } from '@bot/contracts';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CardGiftcardIcon from '@mui/icons-material/CardGiftcard';
import DashboardIcon from '@mui/icons-material/Dashboard';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import HistoryIcon from '@mui/icons-material/History';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import KeyIcon from '@mui/icons-material/Key';
import MapIcon from '@mui/icons-material/Map';
import PaymentsIcon from '@mui/icons-material/Payments';
import PeopleIcon from '@mui/icons-material/People';
import RouteIcon from '@mui/icons-material/Route';
import SensorsIcon from '@mui/icons-material/Sensors';
import SettingsIcon from '@mui/icons-material/Settings';
import ShieldIcon from '@mui/icons-material/Shield';
import SystemUpdateAltIcon from '@mui/icons-material/SystemUpdateAlt';
import Button from '@mui/material/Button';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { frFR as dataGridFrFR } from '@mui/x-data-grid/locales';
import type { ReactNode } from 'react';
import { Outlet, Link as RouterLink } from 'react-router';
import { AppShell, type NavItem } from '../../components/shell/app-shell.tsx';
import { MaintenanceStatus } from '../../features/admin-settings/index.ts';
import { NotificationBell } from '../../features/notifications/index.ts';
import { useAuthStore, useIsConnected } from '../../lib/auth-store.ts';
import { frenchTheme } from '../../lib/french-theme.ts';
import { QueryProvider } from '../../lib/query-provider.tsx';
import { canSeeRoute } from '../guards/guard-decisions.ts';
import { LogoutButton, useSyncedUser } from './account-layout.tsx';

const ICONS: Record<string, ReactNode> = {
  '/admin': <DashboardIcon />,
  '/admin/audit': <HistoryIcon />,
  '/admin/map': <MapIcon />,
  '/admin/package': <Inventory2Icon />,
  '/admin/payments': <PaymentsIcon />,
  '/admin/permission': <KeyIcon />,
  '/admin/releases': <SystemUpdateAltIcon />,
  '/admin/role': <ShieldIcon />,
  '/admin/route': <RouteIcon />,
  '/admin/settings': <SettingsIcon />,
  '/admin/users': <PeopleIcon />,
  '/admin/usersOnline': <SensorsIcon />,
  '/admin/vouchers': <CardGiftcardIcon />,
  '/admin/whitelist': <FactCheckIcon />,
};

/** MUI's French component texts and the data grid's. */
const adminTheme = createTheme(frenchTheme, dataGridFrFR);

const ADMIN_NAV = WEB_ROUTES.filter((route) => route.layout === 'admin' && !route.path.includes(':'));

/** The admin area frame (lazy-loaded with the admin pages). Data grids get their French texts here. */
export default function AdminLayout() {
  // A session that just ended (401) unmounts the area at once: no query may run without a token.
  const isConnected = useIsConnected();
  if (!isConnected) return null;
  return (
    <QueryProvider>
      <AdminArea />
    </QueryProvider>
  );
}

function AdminArea() {
  useSyncedUser();
  const permissions = useAuthStore((state) => state.permissions);
  const isAdministrator = useAuthStore((state) => state.user?.Policy.IsAdministrator === true);

  const items: NavItem[] = ADMIN_NAV.filter(
    (route) => isAdministrator || canSeeRoute(route, permissions),
  ).map((route) => ({
    to: route.path,
    label: route.path === '/admin' ? 'Tableau de bord' : route.name,
    icon: ICONS[route.path],
    end: route.path === '/admin',
  }));

  return (
    <ThemeProvider theme={adminTheme}>
      <AppShell
        title="Administration"
        navTitle="Administration"
        items={items}
        footer={<LogoutButton />}
        actions={
          <>
            <NotificationBell />
            <Button component={RouterLink} to="/account" startIcon={<ArrowBackIcon />} color="inherit">
              Mon compte
            </Button>
          </>
        }
      >
        <MaintenanceStatus />
        <Outlet />
      </AppShell>
    </ThemeProvider>
  );
}
