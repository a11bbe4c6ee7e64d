import {
  alertPreferencesAnswer,
  alertPreferencesSchema,
  alertTestSchema,
  channelHealthAnswer,
  FLEET_ALERT_PERMISSIONS,
  fleetAlertPreferencesAnswer,
  fleetAlertPreferencesSchema,
  notificationsAnswer,
  successAnswer,
  unreadCountAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditActorOf, requireAnyPermission, requireSession, sessionOf } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import { sendChannelTest } from './alert-test.ts';
import {
  getAlertPreferences,
  getFleetAlertPreferences,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  saveAlertPreferences,
  saveFleetAlertPreferences,
  unreadCount,
} from './alerts.service.ts';
import { channelHealth } from './channel-health.ts';

const tags = ['me: alerts'];

/** A customer's alert preferences and notification centre. */
export const alertsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requireSession);

  app.get('/me/alerts', { schema: { tags, response: { 200: alertPreferencesAnswer } } }, async (request) => ({
    data: await getAlertPreferences(ctx, sessionOf(request).userId),
  }));

  app.put(
    '/me/alerts',
    {
      config: { errors: [400] },
      schema: { tags, body: alertPreferencesSchema, response: { 200: alertPreferencesAnswer } },
    },
    async (request) => ({
      data: await saveAlertPreferences(ctx, sessionOf(request).userId, request.body),
    }),
  );

  app.get(
    '/me/alerts/channels',
    { schema: { tags, response: { 200: channelHealthAnswer } } },
    async (request) => ({ data: await channelHealth(ctx, sessionOf(request).userId) }),
  );

  app.post(
    '/me/alerts/test',
    {
      config: { errors: [400, 429] },
      schema: {
        tags,
        body: alertTestSchema,
        response: { 200: successAnswer },
      },
    },
    async (request) => {
      await sendChannelTest(ctx, sessionOf(request).userId, request.body.channel);
      return { success: true as const };
    },
  );

  app.get(
    '/me/notifications',
    { schema: { tags, response: { 200: notificationsAnswer } } },
    async (request) => listNotifications(ctx, sessionOf(request).userId),
  );

  app.get(
    '/me/notifications/unread',
    { schema: { tags, response: { 200: unreadCountAnswer } } },
    async (request) => ({ data: { unread: await unreadCount(ctx, sessionOf(request).userId) } }),
  );

  app.post(
    '/me/notifications/:id/read',
    {
      config: { errors: [404] },
      schema: { tags, params: z.object({ id: z.string().uuid() }), response: { 200: successAnswer } },
    },
    async (request) => {
      await markNotificationRead(ctx, sessionOf(request).userId, request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    '/me/notifications/read-all',
    { schema: { tags, response: { 200: successAnswer } } },
    async (request) => {
      await markAllNotificationsRead(ctx, sessionOf(request).userId);
      return { success: true as const };
    },
  );
};

/** Staff's fleet alerts (decision 903): open to the holders of a permission one of them needs. */
export const fleetAlertsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const opening = [...new Set(Object.values(FLEET_ALERT_PERMISSIONS).flat())];
  guardRoutes(app, requireAnyPermission(...opening));

  app.get(
    '/me/alerts/fleet',
    { schema: { tags, response: { 200: fleetAlertPreferencesAnswer } } },
    async (request) => getFleetAlertPreferences(ctx, sessionOf(request).userId),
  );

  app.put(
    '/me/alerts/fleet',
    {
      config: { errors: [400] },
      schema: { tags, body: fleetAlertPreferencesSchema, response: { 200: fleetAlertPreferencesAnswer } },
    },
    async (request) =>
      saveFleetAlertPreferences(ctx, { actor: auditActorOf(request), preferences: request.body }),
  );
};
