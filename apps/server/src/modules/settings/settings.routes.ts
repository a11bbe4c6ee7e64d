import { publicSettingsSchema } from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getSettings, toPublicSettings } from './settings.service.ts';

export const publicSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/settings/public',
    { schema: { tags: ['settings'], response: { 200: publicSettingsSchema } } },
    async () => toPublicSettings(await getSettings(app.ctx)),
  );
};
