import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import type { ReactNode } from 'react';

export function SectionCard({
  id,
  title,
  subheader,
  children,
}: {
  /** Anchor other pages link to (`/account#id`). */
  id?: string;
  title: string;
  subheader?: string;
  children: ReactNode;
}) {
  return (
    <Card variant="outlined" component="section" aria-label={title} id={id}>
      <CardHeader
        title={title}
        subheader={subheader}
        slotProps={{ title: { variant: 'h2', sx: { fontSize: '1.2rem' } } }}
      />
      <CardContent sx={{ pt: 0 }}>{children}</CardContent>
    </Card>
  );
}
