import {
  auditEntrySchema,
  dataAnswer,
  listAnswer,
  listQuery,
  settingsUpdateInput,
  siteSettingsSchema,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePermission } from '../../core/auth-guard.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import { auditActorOf, listAudit } from '../audit/audit.service.ts';
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
    { schema: { tags, body: settingsUpdateInput, response: { 200: dataAnswer(siteSettingsSchema) } } },
    async (request) => ({
      data: await updateSettings(ctx, { patch: request.body, actor: auditActorOf(request) }),
    }),
  );

  app.get(
    '/admin/settings/history',
    { schema: { tags, querystring: listQuery, response: { 200: listAnswer(auditEntrySchema) } } },
    async (request) => listAudit(ctx, { ...request.query, action: 'settings.update' }),
  );
};
