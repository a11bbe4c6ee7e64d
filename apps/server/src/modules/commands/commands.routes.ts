import {
  botCommandAnswer,
  botCommandInput,
  botCommandListAnswer,
  hwidSchema,
  routeChoicesAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditActorOf, requireAnyPermission, requireSession, sessionOf } from '../../core/guards.ts';
import { listRouteChoices, routeKindsOf } from '../world/index.ts';
import {
  BOT_STAFF_PERMISSIONS,
  boundHwidOf,
  cancelBotCommand,
  issueBotCommand,
  listBotCommands,
  listBotCommandsForStaff,
} from './commands.service.ts';

const staffGuard = requireAnyPermission(...BOT_STAFF_PERMISSIONS);
const commandId = z.string().uuid('Identifiant invalide.');

/** Remote commands to a bot (decision 208): its owner on their bot, staff on any. */
export const commandsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const owner = (request: Parameters<typeof auditActorOf>[0]) => ({ ...auditActorOf(request), staff: false });
  const staff = (request: Parameters<typeof auditActorOf>[0]) => ({ ...auditActorOf(request), staff: true });

  app.get(
    '/me/bot/commands',
    {
      onRequest: requireSession,
      config: { errors: [409] },
      schema: { tags: ['me'], response: { 200: botCommandListAnswer } },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const hwid = await boundHwidOf(ctx, userId);
      return { data: await listBotCommands(ctx, { hwid, ownerId: userId }) };
    },
  );

  app.post(
    '/me/bot/commands',
    {
      onRequest: requireSession,
      config: { errors: [409, 429] },
      schema: { tags: ['me'], body: botCommandInput, response: { 201: botCommandAnswer } },
    },
    async (request, reply) => {
      const issuer = owner(request);
      const hwid = await boundHwidOf(ctx, issuer.id);
      const command = await issueBotCommand(ctx, { hwid, command: request.body, issuer });
      return reply.status(201).send({ data: command });
    },
  );

  app.post(
    '/me/bot/commands/:id/cancel',
    {
      onRequest: requireSession,
      config: { errors: [403, 409] },
      schema: { tags: ['me'], params: z.object({ id: commandId }), response: { 200: botCommandAnswer } },
    },
    async (request) => {
      const issuer = owner(request);
      const hwid = await boundHwidOf(ctx, issuer.id);
      return { data: await cancelBotCommand(ctx, { hwid, id: request.params.id, issuer }) };
    },
  );

  // The names of the routes the customer's bot may follow (the same ones `/bot/routes` gives the
  // agent): its state and its commands name routes by id.
  app.get(
    '/me/bot/routes',
    { onRequest: requireSession, schema: { tags: ['me'], response: { 200: routeChoicesAnswer } } },
    async (request) => {
      return { data: await listRouteChoices(ctx, await routeKindsOf(ctx, sessionOf(request).userId)) };
    },
  );

  // The routes a configuration may name, for every staff member who sends commands (the route
  // editor's list needs can_manageRoute).
  app.get(
    '/admin/bots/route-choices',
    { onRequest: staffGuard, schema: { tags: ['admin: map'], response: { 200: routeChoicesAnswer } } },
    async () => ({ data: await listRouteChoices(ctx) }),
  );

  app.get(
    '/admin/bots/:hwid/commands',
    {
      onRequest: staffGuard,
      schema: {
        tags: ['admin: map'],
        params: z.object({ hwid: hwidSchema }),
        response: { 200: botCommandListAnswer },
      },
    },
    async (request) => ({
      data: await listBotCommandsForStaff(ctx, {
        hwid: request.params.hwid,
        readerId: sessionOf(request).userId,
      }),
    }),
  );

  app.post(
    '/admin/bots/:hwid/commands',
    {
      onRequest: staffGuard,
      config: { errors: [429] },
      schema: {
        tags: ['admin: map'],
        params: z.object({ hwid: hwidSchema }),
        body: botCommandInput,
        response: { 201: botCommandAnswer },
      },
    },
    async (request, reply) => {
      const command = await issueBotCommand(ctx, {
        hwid: request.params.hwid,
        command: request.body,
        issuer: staff(request),
      });
      return reply.status(201).send({ data: command });
    },
  );

  app.post(
    '/admin/bots/:hwid/commands/:id/cancel',
    {
      onRequest: staffGuard,
      config: { errors: [409] },
      schema: {
        tags: ['admin: map'],
        params: z.object({ hwid: hwidSchema, id: commandId }),
        response: { 200: botCommandAnswer },
      },
    },
    async (request) => ({
      data: await cancelBotCommand(ctx, { ...request.params, issuer: staff(request) }),
    }),
  );
};
