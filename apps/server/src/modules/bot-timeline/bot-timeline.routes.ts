import { botTimelineAnswer, hwidSchema } from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAnyPermission, requireSession, sessionOf } from '../../core/guards.ts';
import { timelineHwidOf } from '../bots/index.ts';
import { botTimeline, staffBotTimeline } from './bot-timeline.ts';

/** A PC's timeline, for its owner and for staff: what the bot, its commands, its alerts and its orders did. */
export const botTimelineRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get(
    '/me/bot/timeline',
    { onRequest: requireSession, schema: { tags: ['me'], response: { 200: botTimelineAnswer } } },
    async (request) => {
      const { userId, username } = sessionOf(request);
      const hwid = await timelineHwidOf(ctx, userId);
      if (!hwid) return { data: { hwid: null, owner: { id: userId, username }, entries: [], uptime: [] } };
      return { data: await botTimeline(ctx, { hwid, owner: { id: userId, username } }) };
    },
  );

  // Staff who look after the fleet or its customers.
  app.get(
    '/admin/bots/:hwid/timeline',
    {
      onRequest: requireAnyPermission('can_manageMap', 'can_manageUsers', 'can_manageUsersOnline'),
      schema: {
        tags: ['admin: map'],
        params: z.object({ hwid: hwidSchema }),
        response: { 200: botTimelineAnswer },
      },
    },
    async (request) => ({
      data: await staffBotTimeline(ctx, { hwid: request.params.hwid, readerId: sessionOf(request).userId }),
    }),
  );
};
