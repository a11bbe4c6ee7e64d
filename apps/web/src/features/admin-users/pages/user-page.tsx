import type { AdminUserDetail } from '@bot/contracts';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useParams } from 'react-router';
import { adminTableKey } from '../../../components/admin-table/index.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { BotLogCard } from '../../bot-log/index.ts';
import { timelineKeys } from '../../bot-timeline/index.ts';
import { adminUserKeys, adminUserQuery } from '../api/admin-users.ts';
import { BotCommandsSection } from '../components/bot-commands-section.tsx';
import { BotSection } from '../components/bot-section.tsx';
import { BotTimelineSection } from '../components/bot-timeline-section.tsx';
import { OrdersSection, WhitelistSection } from '../components/commerce-sections.tsx';
import { GrantsSection } from '../components/grants-section.tsx';
import { ProfileSection } from '../components/profile-section.tsx';
import { RolesSection } from '../components/roles-section.tsx';
import { SessionsSection } from '../components/sessions-section.tsx';
import { TimelineSection } from '../components/timeline-section.tsx';

/** /admin/users/:id: everything about one account, and every staff action on it. */
export default function UserPage() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const user = useQuery(adminUserQuery(id));

  // After a change: take the fresh user when the server answered it, refresh the rest.
  const onChanged = (updated?: AdminUserDetail) => {
    if (updated) queryClient.setQueryData(adminUserKeys.detail(id), updated);
    void queryClient.invalidateQueries({
      queryKey: adminUserKeys.detail(id),
      refetchType: updated ? 'none' : 'active',
    });
    void queryClient.invalidateQueries({ queryKey: adminUserKeys.sessions(id) });
    // A PC reset: the PC list marks it former, its timeline gains the reset.
    void queryClient.invalidateQueries({ queryKey: adminUserKeys.pcs(id) });
    void queryClient.invalidateQueries({ queryKey: timelineKeys.staffViews });
    void queryClient.invalidateQueries({ queryKey: adminTableKey(`/admin/users/${id}/audit`) });
    void queryClient.invalidateQueries({ queryKey: adminTableKey('/admin/users') });
  };

  const back = (
    <Button component={RouterLink} to="/admin/users" startIcon={<ArrowBackIcon />}>
      Tous les utilisateurs
    </Button>
  );

  if (user.isPending) {
    return (
      <>
        <PageHeader title="Utilisateur">{back}</PageHeader>
        <CircularProgress aria-label="Chargement" />
      </>
    );
  }
  if (user.isError || !user.data) {
    return (
      <>
        <PageHeader title="Utilisateur">{back}</PageHeader>
        <Alert severity="error">{user.error?.message ?? 'Utilisateur introuvable.'}</Alert>
      </>
    );
  }
  const data = user.data;
  return (
    <>
      <PageHeader title="Utilisateur" subtitle={`${data.username} · ${data.email}`}>
        {back}
      </PageHeader>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' },
          alignItems: 'start',
        }}
      >
        <ProfileSection user={data} onChanged={onChanged} />
        <RolesSection user={data} onChanged={onChanged} />
        <GrantsSection user={data} onChanged={() => onChanged()} />
        <BotSection user={data} onChanged={onChanged} />
        <BotCommandsSection userId={id} />
        <BotTimelineSection userId={id} />
        {data.hwid ? <BotLogCard scope="staff" hwid={data.hwid} /> : null}
        <SessionsSection user={data} onChanged={onChanged} />
        <OrdersSection userId={id} />
        <WhitelistSection userId={id} />
      </Box>
      <Box sx={{ mt: 2 }}>
        <TimelineSection userId={id} />
      </Box>
    </>
  );
}
