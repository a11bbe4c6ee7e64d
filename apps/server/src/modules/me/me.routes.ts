import {
  botKeyAnswer,
  changePasswordInput,
  discordInput,
  hwidResetAllowanceAnswer,
  hwidResetAnswer,
  mySessionParams,
  mySessionsAnswer,
  permissionsAnswer,
  revokedAnswer,
  successAnswer,
  userInfoAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { originOf, requireSession, sessionOf } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import { getCachedPublicUser, getPublicUser, getUserPermissions } from '../access/index.ts';
import { changePassword, listOwnSessions, revokeOwnSessions } from '../auth/index.ts';
import { getOrCreateBotKey } from '../users/index.ts';
import { changeMyDiscordId, getHwidResetAllowance, resetHwid, rotateMyBotKey } from './me.service.ts';

const tags = ['me'];

export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requireSession);

  app.get('/me/info', { schema: { tags, response: { 200: userInfoAnswer } } }, async (request) => ({
    data: await getCachedPublicUser(ctx, sessionOf(request).userId),
  }));

  app.get('/me/permissions', { schema: { tags, response: { 200: permissionsAnswer } } }, async (request) => ({
    data: await getUserPermissions(ctx, sessionOf(request).userId),
  }));

  app.put(
    '/me/password',
    {
      config: { errors: [429] },
      schema: { tags, body: changePasswordInput, response: { 200: successAnswer } },
    },
    async (request) => {
      const session = sessionOf(request);
      await changePassword(
        ctx,
        { userId: session.userId, sessionId: session.sessionId, ...request.body },
        originOf(request),
      );
      return { success: true as const };
    },
  );

  app.put(
    '/me/discord',
    { schema: { tags, body: discordInput, response: { 200: userInfoAnswer } } },
    async (request) => {
      const { userId } = sessionOf(request);
      await changeMyDiscordId(ctx, { userId, discordId: request.body.discordId, ip: request.ip });
      return { data: await getPublicUser(ctx, userId) };
    },
  );

  app.delete(
    '/me/hwid',
    { config: { errors: [409, 429] }, schema: { tags, response: { 200: hwidResetAnswer } } },
    async (request) => {
      const { userId } = sessionOf(request);
      const resets = await resetHwid(ctx, { userId, ip: request.ip });
      return { data: await getPublicUser(ctx, userId), nextResetAt: resets.nextResetAt, resets };
    },
  );

  // Not on /me/info: that answer is cached per node, and this count moves with time (decision 906).
  app.get(
    '/me/hwid-resets',
    { schema: { tags, response: { 200: hwidResetAllowanceAnswer } } },
    async (request) => ({ data: await getHwidResetAllowance(ctx, sessionOf(request).userId) }),
  );

  app.get('/me/sessions', { schema: { tags, response: { 200: mySessionsAnswer } } }, async (request) => {
    const { userId, sessionId } = sessionOf(request);
    return { data: await listOwnSessions(ctx, { userId, currentSessionId: sessionId }) };
  });

  app.delete('/me/sessions', { schema: { tags, response: { 200: revokedAnswer } } }, async (request) => ({
    revoked: await revokeOwnSessions(ctx, sessionOf(request), originOf(request)),
  }));

  app.delete(
    '/me/sessions/:sessionId',
    { schema: { tags, params: mySessionParams, response: { 200: revokedAnswer } } },
    async (request) => ({
      revoked: await revokeOwnSessions(ctx, sessionOf(request), originOf(request), request.params.sessionId),
    }),
  );

  app.get('/me/bot-key', { schema: { tags, response: { 200: botKeyAnswer } } }, async (request) => ({
    data: { accessKey: await getOrCreateBotKey(ctx, sessionOf(request).userId) },
  }));

  app.post(
    '/me/bot-key',
    { config: { secretAnswer: true }, schema: { tags, response: { 200: botKeyAnswer } } },
    async (request) => ({
      data: { accessKey: await rotateMyBotKey(ctx, { userId: sessionOf(request).userId, ip: request.ip }) },
    }),
  );
};
