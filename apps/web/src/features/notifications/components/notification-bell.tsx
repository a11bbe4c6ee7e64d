import NotificationsIcon from '@mui/icons-material/Notifications';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { LIVE_EVENTS } from '../../../lib/live-events.ts';
import { notificationKeys, unreadCountQuery } from '../api/notifications.ts';

/**
 * The header's bell: the unread count, a link to the notification centre. It counts again at once
 * when an open socket says a notification arrived, else every 30 s and when the window gets focus.
 */
export function NotificationBell() {
  const queryClient = useQueryClient();
  const unread = useQuery(unreadCountQuery).data ?? 0;
  useEffect(() => {
    const refresh = () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    window.addEventListener(LIVE_EVENTS.notificationsRefresh, refresh);
    return () => window.removeEventListener(LIVE_EVENTS.notificationsRefresh, refresh);
  }, [queryClient]);
  // The accessible name holds the badge's visible text (WCAG 2.5.3, label in name).
  const shown = unread > 99 ? '99+' : String(unread);
  const label = unread === 0 ? 'Notifications' : `Notifications : ${shown} non lue${unread > 1 ? 's' : ''}`;
  return (
    <Tooltip title={label}>
      <IconButton
        component={RouterLink}
        to="/account/notifications"
        aria-label={label}
        data-testid="notification-bell"
        data-unread={unread}
        color="inherit"
      >
        <Badge badgeContent={unread > 0 ? shown : undefined} color="error">
          <NotificationsIcon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
