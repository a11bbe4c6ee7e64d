import {
  auditEntrySchema,
  dataAnswer,
  listAnswer,
  listQuery,
  settingsUpdateInput,
  siteSettingsSchema,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../core/errors.ts';
import { auditActorOf, requirePermission, sessionOf } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import { listAudit } from '../audit/index.ts';
import { getSettings, updateSettings } from './settings.service.ts';

const tags = ['admin: settings'];

/** `/admin/settings`: read, change (validated, audited with before/after), history. */
export const settingsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requirePermission('can_manageSettings'));

  app.get(
    '/admin/settings',
    { schema: { tags, response: { 200: dataAnswer(siteSettingsSchema) } } },
    async () => ({
      data: await getSettings(ctx),
    }),
  );

  app.put(
    '/admin/settings',
    {
      config: { errors: [409] },
      schema: { tags, body: settingsUpdateInput, response: { 200: dataAnswer(siteSettingsSchema) } },
    },
    async (request) => {
      const actor = auditActorOf(request);
      // Whoever makes two-factor mandatory for staff must have it, or they lock themselves out. Their
      // session says whether their account has it (enabling it refreshes the sessions).
      if (request.body.staffTwoFactorRequired && !sessionOf(request).twoFactorEnabled) {
        throw new AppError('TWO_FACTOR_REQUIRED_FIRST');
      }
      return { data: await updateSettings(ctx, { patch: request.body, actor }) };
    },
  );

  app.get(
    '/admin/settings/history',
    { schema: { tags, querystring: listQuery, response: { 200: listAnswer(auditEntrySchema) } } },
    async (request) =>
      listAudit(ctx, { ...request.query, action: 'settings.update' }, { id: sessionOf(request).userId }),
  );
};
