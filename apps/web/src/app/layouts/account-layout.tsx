// zod's validation messages in French for the forms of this area (docs/decisions/103).
import '@bot/contracts/zod-locale';
import { isStaff } from '@bot/contracts';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import LogoutIcon from '@mui/icons-material/Logout';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SmartToyIcon from '@mui/icons-material/SmartToy';
import StorefrontIcon from '@mui/icons-material/Storefront';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { ThemeProvider } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { AppShell, type NavItem } from '../../components/shell/app-shell.tsx';
import { fetchMeInfo, fetchMyPermissions, meKeys, signOut } from '../../features/auth/index.ts';
import { NotificationBell } from '../../features/notifications/index.ts';
import { useAuthStore, useIsConnected } from '../../lib/auth-store.ts';
import { frenchTheme } from '../../lib/french-theme.ts';
import { QueryProvider } from '../../lib/query-provider.tsx';

const ACCOUNT_ITEMS: NavItem[] = [
  { to: '/account', label: 'Mon compte', icon: <AccountCircleIcon />, end: true },
  { to: '/account/marketplace', label: 'Boutique', icon: <StorefrontIcon /> },
  { to: '/account/mybot', label: 'Mon bot', icon: <SmartToyIcon /> },
  { to: '/account/payments', label: 'Mes paiements', icon: <ReceiptLongIcon /> },
  { to: '/account/whitlist', label: 'Liste blanche', icon: <FactCheckIcon /> },
];

/**
 * Keeps the stored user and permissions fresh (a purchase grants permissions, staff change roles);
 * a revoked session answers 401 here and ends on /login.
 */
export function useSyncedUser() {
  const setUser = useAuthStore((state) => state.setUser);
  const setPermissions = useAuthStore((state) => state.setPermissions);
  const info = useQuery({ queryKey: meKeys.info(), queryFn: fetchMeInfo, staleTime: 60_000 });
  const permissions = useQuery({
    queryKey: meKeys.permissions(),
    queryFn: fetchMyPermissions,
    staleTime: 60_000,
  });
  useEffect(() => {
    if (info.data) setUser(info.data);
  }, [info.data, setUser]);
  useEffect(() => {
    if (permissions.data) setPermissions(permissions.data);
  }, [permissions.data, setPermissions]);
}

export function LogoutButton() {
  return (
    <ListItemButton onClick={() => void signOut()} data-testid="logout">
      <ListItemIcon>
        <LogoutIcon />
      </ListItemIcon>
      <ListItemText primary="Se déconnecter" />
    </ListItemButton>
  );
}

export default function AccountLayout() {
  // A session that just ended (401) unmounts the area at once: no query may run without a token.
  const isConnected = useIsConnected();
  if (!isConnected) return null;
  return (
    <QueryProvider>
      <AccountArea />
    </QueryProvider>
  );
}

function AccountArea() {
  useSyncedUser();
  const username = useAuthStore((state) => state.user?.username);
  const permissions = useAuthStore((state) => state.permissions);
  const isAdministrator = useAuthStore((state) => state.user?.Policy.IsAdministrator === true);
  const hasAdminAccess = isStaff({ isAdministrator, permissions });
  const items = hasAdminAccess
    ? [...ACCOUNT_ITEMS, { to: '/admin', label: 'Administration', icon: <AdminPanelSettingsIcon /> }]
    : ACCOUNT_ITEMS;

  return (
    <ThemeProvider theme={frenchTheme}>
      <AppShell
        title="Espace client"
        navTitle="Mon espace"
        items={items}
        footer={<LogoutButton />}
        actions={
          <>
            <NotificationBell />
            <Typography variant="body2" color="text.secondary" data-testid="current-user">
              {username}
            </Typography>
          </>
        }
      >
        <Outlet />
      </AppShell>
    </ThemeProvider>
  );
}
