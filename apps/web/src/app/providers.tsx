import CssBaseline from '@mui/material/CssBaseline';
import GlobalStyles from '@mui/material/GlobalStyles';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { theme } from '../lib/theme.ts';

/** Theme and global styles; the toast container mounts with the first notification (lib/toaster.tsx). */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      <GlobalStyles
        styles={(t) => ({
          '@keyframes nav-progress': {
            from: { transform: 'translateX(-100%)' },
            to: { transform: 'translateX(100%)' },
          },
          '.nav-progress': {
            position: 'fixed',
            inset: '0 0 auto 0',
            height: 3,
            zIndex: 2000,
            background: t.palette.primary.main,
            animation: 'nav-progress 1s ease-in-out infinite',
          },
        })}
      />
      {children}
    </ThemeProvider>
  );
}
