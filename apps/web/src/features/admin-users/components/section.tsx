import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import type { ReactNode } from 'react';

/** A titled card of the user page. */
export function Section({
  id,
  title,
  subheader,
  action,
  children,
}: {
  /** Anchor other pages link to (`/admin/users/:id#id`). */
  id?: string;
  title: string;
  subheader?: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card component="section" aria-label={title} variant="outlined" id={id}>
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
