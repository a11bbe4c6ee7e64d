import { ThemeProvider } from '@mui/material/styles';
import { Outlet } from 'react-router';
import { theme } from '../../lib/theme.ts';

/**
 * The MUI theme for the public pages drawn with MUI's components (sign-in, registration, password
 * reset, getting started); the account and admin layouts provide their own (lib/french-theme.ts).
 * A layout loaded with those pages: the landing page, the public frame, the error and maintenance
 * views are drawn with static CSS (app/base.css), so MUI, its styling engine and the theme are not
 * part of the landing page's first load (docs/decisions/103).
 */
export default function MuiThemeLayout() {
  return (
    <ThemeProvider theme={theme}>
      <Outlet />
    </ThemeProvider>
  );
}
