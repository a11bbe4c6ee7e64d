import { createTheme } from '@mui/material/styles';
import { BREAKPOINTS } from './constants.ts';

declare module '@mui/material/styles' {
  interface BreakpointOverrides {
    xxl: true;
  }
}

/**
 * Dark theme forced and the breakpoints of docs/specification.md §7. MUI's French component texts are added
 * by the account and admin areas (`french-theme.ts`), the only ones with components that have texts.
 * The pages drawn without MUI (landing page, public frame, error and maintenance views) read the same
 * values from app/base.css; app/base-css.test.ts keeps the two equal.
 */
export const theme = createTheme({
  palette: {
    mode: 'dark',
    primary: { main: '#4fc3f7' },
    secondary: { main: '#ffb74d' },
    // MUI's dark red with white text reads at 3.7:1; this one with dark text at 6.8:1 (WCAG AA),
    // and as red text on the paper at 6.2:1.
    error: { main: '#ff6b6b', contrastText: '#111111' },
    background: { default: '#0f1419', paper: '#161c23' },
  },
  breakpoints: { values: { ...BREAKPOINTS } },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '2.6rem', fontWeight: 700 },
    h2: { fontSize: '2rem', fontWeight: 700 },
    h3: { fontSize: '1.6rem', fontWeight: 600 },
    h4: { fontSize: '1.35rem', fontWeight: 600 },
  },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { textTransform: 'none' } },
    },
    MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
  },
});
