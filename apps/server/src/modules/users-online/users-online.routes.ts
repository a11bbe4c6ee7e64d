import {
  onlineBotParams,
  onlineBotsAnswer,
  onlineBotsQuery,
  onlineSessionParams,
  onlineSessionsAnswer,
  onlineSessionsQuery,
  successAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditActorOf, requirePermission, sessionOf } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import {
  kickOnlineBot,
  listUsersOnlineBots,
  listUsersOnlineSessions,
  revokeOnlineSession,
} from './users-online.service.ts';

const tags = ['admin: users online'];

/** `/admin/usersOnline`: connected bots and signed-in web sessions; kick a bot, revoke a session. */
export const usersOnlineRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requirePermission('can_manageUsersOnline'));

  app.get(
    '/admin/users-online/bots',
    { schema: { tags, querystring: onlineBotsQuery, response: { 200: onlineBotsAnswer } } },
    async (request) => listUsersOnlineBots(ctx, request.query, { id: sessionOf(request).userId }),
  );

  app.get(
    '/admin/users-online/sessions',
    { schema: { tags, querystring: onlineSessionsQuery, response: { 200: onlineSessionsAnswer } } },
    async (request) => listUsersOnlineSessions(ctx, request.query, { id: sessionOf(request).userId }),
  );

  app.post(
    '/admin/users-online/bots/:hwid/kick',
    { schema: { tags, params: onlineBotParams, response: { 200: successAnswer } } },
    async (request) => {
      await kickOnlineBot(ctx, { hwid: request.params.hwid, actor: auditActorOf(request) });
      return { success: true as const };
    },
  );

  app.post(
    '/admin/users-online/sessions/:id/revoke',
    { schema: { tags, params: onlineSessionParams, response: { 200: successAnswer } } },
    async (request) => {
      await revokeOnlineSession(ctx, { sessionId: request.params.id, actor: auditActorOf(request) });
      return { success: true as const };
    },
  );
};
