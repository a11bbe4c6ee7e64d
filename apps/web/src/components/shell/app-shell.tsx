import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { useTheme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { APP_NAME, MOBILE_BREAKPOINT } from '../../lib/constants.ts';
import { MAIN_CONTENT_ID, SkipLink } from '../skip-link.tsx';

export interface NavItem {
  to: string;
  label: string;
  icon: ReactNode;
  /** Exact match only (for index pages such as /account). */
  end?: boolean;
}

const DRAWER_WIDTH = 264;
/** The site banner's height (0 without one): the fixed bar and side menu start below it. */
const BANNER_OFFSET = 'var(--site-banner-height, 0px)';
const BELOW_BANNER = { top: BANNER_OFFSET, height: `calc(100% - ${BANNER_OFFSET})` };

/**
 * The frame of the account and admin areas: a permanent side menu from `lg` up, a drawer opened from
 * the top bar below it (docs/specification.md §7: the mobile breakpoint is lg).
 */
export function AppShell({
  title,
  navTitle,
  items,
  footer,
  actions,
  children,
}: {
  title: string;
  navTitle: string;
  items: NavItem[];
  footer?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up(MOBILE_BREAKPOINT), { noSsr: true });
  const [mobileOpen, setMobileOpen] = useState(false);
  const { pathname } = useLocation();

  const isActive = (item: NavItem) =>
    item.end ? pathname === item.to : pathname === item.to || pathname.startsWith(`${item.to}/`);

  const menu = (
    <Box
      component="nav"
      aria-label={navTitle}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <Toolbar>
        <Typography
          component={RouterLink}
          to="/"
          variant="h6"
          color="primary"
          sx={{ textDecoration: 'none' }}
        >
          {APP_NAME}
        </Typography>
      </Toolbar>
      <Divider />
      <List subheader={<ListSubheader sx={{ bgcolor: 'transparent' }}>{navTitle}</ListSubheader>}>
        {items.map((item) => (
          <ListItem key={item.to} disablePadding>
            <ListItemButton
              component={RouterLink}
              to={item.to}
              selected={isActive(item)}
              aria-current={isActive(item) ? 'page' : undefined}
              onClick={() => setMobileOpen(false)}
            >
              <ListItemIcon>{item.icon}</ListItemIcon>
              <ListItemText primary={item.label} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
      <Box sx={{ flexGrow: 1 }} />
      {footer ? (
        <>
          <Divider />
          <Box onClick={() => setMobileOpen(false)}>{footer}</Box>
        </>
      ) : null}
    </Box>
  );

  return (
    <Box sx={{ display: 'flex', minHeight: `calc(100vh - ${BANNER_OFFSET})` }}>
      <SkipLink />
      <AppBar
        position="fixed"
        color="default"
        elevation={0}
        sx={{
          top: BANNER_OFFSET,
          borderBottom: 1,
          borderColor: 'divider',
          width: { [MOBILE_BREAKPOINT]: `calc(100% - ${DRAWER_WIDTH}px)` },
          ml: { [MOBILE_BREAKPOINT]: `${DRAWER_WIDTH}px` },
        }}
      >
        <Toolbar>
          {isDesktop ? null : (
            <IconButton
              edge="start"
              aria-label="Ouvrir le menu"
              onClick={() => setMobileOpen(true)}
              sx={{ mr: 1 }}
            >
              <MenuIcon />
            </IconButton>
          )}
          <Typography variant="h6" component="p" noWrap sx={{ flexGrow: 1 }}>
            {title}
          </Typography>
          {actions}
        </Toolbar>
      </AppBar>
      <Box component="aside" sx={{ width: { [MOBILE_BREAKPOINT]: DRAWER_WIDTH }, flexShrink: 0 }}>
        {isDesktop ? (
          <Drawer
            variant="permanent"
            open
            sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, ...BELOW_BANNER } }}
          >
            {menu}
          </Drawer>
        ) : (
          <Drawer
            variant="temporary"
            open={mobileOpen}
            onClose={() => setMobileOpen(false)}
            ModalProps={{ keepMounted: true }}
            sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
          >
            {menu}
          </Drawer>
        )}
      </Box>
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, md: 3 } }}
      >
        <Toolbar />
        {children}
      </Box>
    </Box>
  );
}
