import { publicSettingsSchema } from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { runningMaintenance } from '../maintenance-windows/index.ts';
import { getSettings, toPublicSettings } from './settings.service.ts';

export const publicSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/settings/public',
    { schema: { tags: ['settings'], response: { 200: publicSettingsSchema } } },
    // A running maintenance window shows in the banner by itself (decision 907).
    async () => toPublicSettings(await getSettings(app.ctx), await runningMaintenance(app.ctx)),
  );
};
