import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import type { ReactNode } from 'react';

/** A titled card of the user page. */
export function Section({
  title,
  subheader,
  action,
  children,
}: {
  title: string;
  subheader?: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card component="section" aria-label={title} variant="outlined">
      <CardHeader
        title={title}
        subheader={subheader}
        action={action}
        slotProps={{ title: { variant: 'h6' } }}
      />
      <CardContent sx={{ pt: 0 }}>{children}</CardContent>
    </Card>
  );
}
