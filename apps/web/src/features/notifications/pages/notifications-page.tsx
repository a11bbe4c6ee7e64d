import type { AppNotification, NotificationKind } from '@bot/contracts';
import CheckIcon from '@mui/icons-material/Check';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { dateTimeMedium as dateTimeFormat } from '../../../lib/dates.ts';
import {
  markAllNotificationsRead,
  markNotificationRead,
  notificationKeys,
  notificationsQuery,
} from '../api/notifications.ts';
import { ChannelsCard } from '../components/channels-card.tsx';
import { FleetAlertsCard } from '../components/fleet-alerts-card.tsx';

/** /account/notifications: the alerts and recoveries sent to the signed-in user, newest first. */
export default function NotificationsPage() {
  const queryClient = useQueryClient();
  const list = useQuery(notificationsQuery);
  const refresh = () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  const readOne = useMutation({ mutationFn: markNotificationRead, onSettled: refresh });
  const readAll = useMutation({ mutationFn: markAllNotificationsRead, onSettled: refresh });
  const unread = list.data?.unread ?? 0;

  return (
    <>
      <PageHeader
        title="Notifications"
        subtitle="Les alertes de votre bot, leurs retours à la normale, votre offre et vos paiements."
      >
        <Button
          variant="outlined"
          startIcon={<CheckIcon />}
          disabled={unread === 0 || readAll.isPending}
          onClick={() => readAll.mutate()}
        >
          Tout marquer comme lu
        </Button>
      </PageHeader>
      {list.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label="Chargement" />
        </Box>
      ) : null}
      {list.isError ? <Alert severity="error">Impossible de charger les notifications.</Alert> : null}
      <Stack spacing={3}>
        {list.data ? (
          <SectionCard
            title={unread === 0 ? 'Tout est lu' : `${unread} non lue${unread > 1 ? 's' : ''}`}
            subheader="Les 50 plus récentes."
          >
            {list.data.data.length === 0 ? (
              <Typography color="text.secondary" data-testid="notifications-empty">
                Aucune notification pour l’instant. Choisissez vos alertes sur la page{' '}
                <RouterLink to="/account/mybot#alertes">Mon bot</RouterLink>.
              </Typography>
            ) : (
              <List data-testid="notifications-list" disablePadding>
                {list.data.data.map((notification) => (
                  <NotificationItem
                    key={notification.id}
                    notification={notification}
                    isMarking={readOne.isPending && readOne.variables === notification.id}
                    onRead={() => readOne.mutate(notification.id)}
                  />
                ))}
              </List>
            )}
          </SectionCard>
        ) : null}
        <ChannelsCard />
        <FleetAlertsCard />
      </Stack>
    </>
  );
}

const KIND_CHIPS: Record<NotificationKind, { label: string; color: 'error' | 'success' | 'info' }> = {
  alert: { label: 'Alerte', color: 'error' },
  recovery: { label: 'Rétabli', color: 'success' },
  info: { label: 'Information', color: 'info' },
};

function NotificationItem({
  notification,
  isMarking,
  onRead,
}: {
  notification: AppNotification;
  isMarking: boolean;
  onRead: () => void;
}) {
  const isUnread = notification.readAt === null;
  return (
    <ListItem
      divider
      data-testid="notification"
      data-kind={notification.kind}
      data-unread={isUnread ? 'true' : 'false'}
      secondaryAction={
        isUnread ? (
          <Button size="small" onClick={onRead} disabled={isMarking}>
            Marquer comme lu
          </Button>
        ) : null
      }
      sx={{ pr: isUnread ? 20 : 2 }}
    >
      <ListItemText
        primary={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography component="span" sx={{ fontWeight: isUnread ? 700 : 400 }}>
              {notification.title}
            </Typography>
            <Chip size="small" {...KIND_CHIPS[notification.kind]} />
          </Stack>
        }
        secondary={`${notification.body} · ${dateTimeFormat.format(new Date(notification.at))}`}
      />
    </ListItem>
  );
}
