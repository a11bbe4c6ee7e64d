import { botLogAnswer, hwidSchema } from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAnyPermission, requireSession, sessionOf } from '../../core/guards.ts';
import { BOT_STAFF_PERMISSIONS, boundHwidOf, ownerForStaff } from '../commands/index.ts';
import { listBotLogLines } from './bot-log.service.ts';

/** The bot's journal (decision 209): the last lines kept; the live tail comes over a `log` socket. */
export const botLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const journalOf = async (userId: string, hwid: string) => ({
    data: await listBotLogLines(ctx, { userId, hwid }),
    online: (await ctx.live.botState(hwid)) !== undefined,
  });

  app.get(
    '/me/bot/log',
    {
      onRequest: requireSession,
      config: { errors: [409] },
      schema: { tags: ['me'], response: { 200: botLogAnswer } },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      return journalOf(userId, await boundHwidOf(ctx, userId));
    },
  );

  app.get(
    '/admin/bots/:hwid/log',
    {
      onRequest: requireAnyPermission(...BOT_STAFF_PERMISSIONS),
      schema: {
        tags: ['admin: map'],
        params: z.object({ hwid: hwidSchema }),
        response: { 200: botLogAnswer },
      },
    },
    async (request) => {
      const owner = await ownerForStaff(ctx, request.params.hwid, { id: sessionOf(request).userId });
      return journalOf(owner.id, request.params.hwid);
    },
  );
};
