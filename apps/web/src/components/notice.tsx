import Box from '@mui/material/Box';
import SvgIcon from '@mui/material/SvgIcon';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

type Severity = 'success' | 'info' | 'warning' | 'error';

/** The icons of MUI's Alert (@mui/material/internal/svg-icons). */
const ICON_PATHS: Record<Severity, string> = {
  success:
    'M20,12A8,8 0 0,1 12,20A8,8 0 0,1 4,12A8,8 0 0,1 12,4C12.76,4 13.5,4.11 14.2, 4.31L15.77,2.74C14.61,2.26 13.34,2 12,2A10,10 0 0,0 2,12A10,10 0 0,0 12,22A10,10 0 0, 0 22,12M7.91,10.08L6.5,11.5L11,16L21,6L19.59,4.58L11,13.17L7.91,10.08Z',
  warning: 'M12 5.99L19.53 19H4.47L12 5.99M12 2L1 21h22L12 2zm1 14h-2v2h2v-2zm0-6h-2v4h2v-4z',
  error:
    'M11 15h2v2h-2zm0-8h2v6h-2zm.99-5C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2zM12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8z',
  info: 'M11,9H13V7H11M12,20C7.59,20 4,16.41 4,12C4,7.59 7.59,4 12,4C16.41,4 20,7.59 20, 12C20,16.41 16.41,20 12,20M12,2A10,10 0 0,0 2,12A10,10 0 0,0 12,22A10,10 0 0,0 22,12A10, 10 0 0,0 12,2M11,17H13V11H11V17Z',
};

/**
 * MUI's standard Alert as the public pages use it (role, colours, icon, action on the right), drawn
 * without Alert's close-button machinery (IconButton, slots): 4 KB gzip less on the form pages a
 * visitor lands on (docs/decisions/103). The account and admin areas keep MUI's Alert.
 */
export function Notice({
  severity,
  action,
  sx,
  children,
  'data-testid': testId,
  role = 'alert',
}: {
  severity: Severity;
  action?: ReactNode;
  sx?: SxProps<Theme>;
  children: ReactNode;
  'data-testid'?: string;
  /** `status` for information that must not interrupt a screen reader (`alert` does). */
  role?: 'alert' | 'status';
}) {
  return (
    <Box
      role={role}
      data-testid={testId}
      sx={[
        (theme) => ({
          ...theme.typography.body2,
          display: 'flex',
          padding: '6px 16px',
          borderRadius: `${theme.shape.borderRadius}px`,
          color: theme.lighten(theme.palette[severity].light, 0.6),
          backgroundColor: theme.darken(theme.palette[severity].light, 0.9),
        }),
        ...(Array.isArray(sx) ? sx : sx ? [sx] : []),
      ]}
    >
      <Box
        sx={{ mr: '12px', py: '7px', display: 'flex', fontSize: 22, opacity: 0.9, color: `${severity}.main` }}
      >
        <SvgIcon fontSize="inherit">
          <path d={ICON_PATHS[severity]} />
        </SvgIcon>
      </Box>
      <Box sx={{ py: '8px', minWidth: 0, overflow: 'auto' }}>{children}</Box>
      {action ? (
        <Box
          sx={{ display: 'flex', alignItems: 'flex-start', pt: '4px', pl: '16px', ml: 'auto', mr: '-8px' }}
        >
          {action}
        </Box>
      ) : null}
    </Box>
  );
}
