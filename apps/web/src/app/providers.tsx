import CssBaseline from '@mui/material/CssBaseline';
import GlobalStyles from '@mui/material/GlobalStyles';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { cssTransition, ToastContainer } from 'react-toastify';
import 'react-toastify/ReactToastify.css';
import { TOAST_AUTO_CLOSE_MS, TOAST_COLLAPSE_MS, TOAST_POSITION, TOAST_THEME } from '../lib/constants.ts';
import { theme } from '../lib/theme.ts';

/** react-toastify's bounce, with the spec's collapse duration written out. */
const toastTransition = cssTransition({
  enter: 'Toastify--animate Toastify__bounce-enter',
  exit: 'Toastify--animate Toastify__bounce-exit',
  appendPosition: true,
  collapseDuration: TOAST_COLLAPSE_MS,
});

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
      <ToastContainer
        position={TOAST_POSITION}
        autoClose={TOAST_AUTO_CLOSE_MS}
        theme={TOAST_THEME}
        transition={toastTransition}
        newestOnTop
        closeOnClick
        pauseOnFocusLoss={false}
        limit={5}
      />
    </ThemeProvider>
  );
}
