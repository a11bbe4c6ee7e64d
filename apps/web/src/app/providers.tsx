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
          // A visible focus everywhere for keyboard users (MUI removes the outline of its buttons).
          'a:focus-visible, button:focus-visible, [tabindex]:not([tabindex="-1"]):focus-visible, .MuiButtonBase-root.Mui-focusVisible':
            { outline: `3px solid ${t.palette.primary.main}`, outlineOffset: 2 },
          '.skip-link': {
            position: 'fixed',
            top: 8,
            left: 8,
            zIndex: 2100,
            padding: '8px 16px',
            borderRadius: t.shape.borderRadius,
            background: t.palette.primary.main,
            color: t.palette.primary.contrastText,
            fontWeight: 600,
            textDecoration: 'none',
            transform: 'translateY(-200%)',
          },
          '.skip-link:focus': { transform: 'none' },
          // The skip link's target takes the focus without drawing a frame around the whole page.
          'main[tabindex="-1"]:focus': { outline: 'none' },
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
