import {
  type AlertChannel,
  type AlertPreferences,
  alertPreferencesAnswer,
  type ChannelHealth,
  channelHealthAnswer,
  type FleetAlertPreferences,
  type FleetAlertPreferencesAnswer,
  fleetAlertPreferencesAnswer,
  type NotificationsAnswer,
  notificationsAnswer,
  successAnswer,
  unreadCountAnswer,
} from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const notificationKeys = {
  all: ['me', 'notifications'] as const,
  unread: ['me', 'notifications', 'unread'] as const,
  preferences: ['me', 'alerts'] as const,
  fleet: ['me', 'alerts', 'fleet'] as const,
  health: ['me', 'alerts', 'channels'] as const,
  list: ['me', 'notifications', 'list'] as const,
};

/** The bell's count: every 30 s and when the window gets the focus back (the socket is not always open). */
export const unreadCountQuery = queryOptions({
  queryKey: notificationKeys.unread,
  queryFn: async (): Promise<number> =>
    (
      await api.get('/me/notifications/unread', {
        schema: unreadCountAnswer,
        fallback: 'Impossible de compter les notifications.',
        silent: true,
      })
    ).data.unread,
  refetchInterval: 30_000,
  refetchOnWindowFocus: true,
});

export const notificationsQuery = queryOptions({
  queryKey: notificationKeys.list,
  queryFn: async (): Promise<NotificationsAnswer> =>
    api.get('/me/notifications', {
      schema: notificationsAnswer,
      fallback: 'Impossible de charger les notifications.',
    }),
  refetchInterval: 30_000,
});

export async function markNotificationRead(id: string): Promise<void> {
  await api.post(`/me/notifications/${encodeURIComponent(id)}/read`, undefined, {
    schema: successAnswer,
    fallback: 'Impossible de marquer la notification comme lue.',
  });
}

export async function markAllNotificationsRead(): Promise<void> {
  await api.post('/me/notifications/read-all', undefined, {
    schema: successAnswer,
    fallback: 'Impossible de marquer les notifications comme lues.',
  });
}

export const alertPreferencesQuery = queryOptions({
  queryKey: notificationKeys.preferences,
  queryFn: async (): Promise<AlertPreferences> =>
    (
      await api.get('/me/alerts', {
        schema: alertPreferencesAnswer,
        fallback: 'Impossible de charger vos alertes.',
      })
    ).data,
});

/** Whether the e-mail and Discord channels keep failing (decision 907), with the last error. */
export const channelHealthQuery = queryOptions({
  queryKey: notificationKeys.health,
  queryFn: async (): Promise<ChannelHealth> =>
    (
      await api.get('/me/alerts/channels', {
        schema: channelHealthAnswer,
        fallback: 'Impossible de lire l’état de vos canaux.',
        silent: true,
      })
    ).data,
  refetchInterval: 60_000,
});

export async function saveAlertPreferences(preferences: AlertPreferences): Promise<AlertPreferences> {
  return (
    await api.put('/me/alerts', preferences, {
      schema: alertPreferencesAnswer,
      fallback: 'Impossible d’enregistrer vos alertes.',
    })
  ).data;
}

/** A test message through one channel, by the alerts' own path (rate-limited by the server). */
export async function sendAlertTest(channel: AlertChannel): Promise<void> {
  await api.post(
    '/me/alerts/test',
    { channel },
    { schema: successAnswer, fallback: 'Impossible d’envoyer le message de test.' },
  );
}

/** Staff's fleet alerts and those their permissions open (decision 903). */
export const fleetAlertPreferencesQuery = queryOptions({
  queryKey: notificationKeys.fleet,
  queryFn: async (): Promise<FleetAlertPreferencesAnswer> =>
    api.get('/me/alerts/fleet', {
      schema: fleetAlertPreferencesAnswer,
      fallback: 'Impossible de charger les alertes de la flotte.',
    }),
});

export async function saveFleetAlertPreferences(
  preferences: FleetAlertPreferences,
): Promise<FleetAlertPreferencesAnswer> {
  return api.put('/me/alerts/fleet', preferences, {
    schema: fleetAlertPreferencesAnswer,
    fallback: 'Impossible d’enregistrer les alertes de la flotte.',
  });
}
