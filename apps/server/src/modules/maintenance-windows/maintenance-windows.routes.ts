import { maintenanceWindowAnswer, maintenanceWindowInput, maintenanceWindowsAnswer } from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditActorOf, requirePermission } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import {
  cancelMaintenanceWindow,
  createMaintenanceWindow,
  listMaintenanceWindows,
} from './maintenance-windows.service.ts';

const tags = ['admin: maintenance windows'];

/** `/admin/maintenance-windows` (decision 907): list, schedule, cancel; audited. */
export const maintenanceWindowsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requirePermission('can_manageSettings'));

  app.get(
    '/admin/maintenance-windows',
    { schema: { tags, response: { 200: maintenanceWindowsAnswer } } },
    async () => ({ data: await listMaintenanceWindows(ctx) }),
  );

  app.post(
    '/admin/maintenance-windows',
    {
      config: { errors: [400] },
      schema: { tags, body: maintenanceWindowInput, response: { 200: maintenanceWindowAnswer } },
    },
    async (request) => ({
      data: await createMaintenanceWindow(ctx, { window: request.body, actor: auditActorOf(request) }),
    }),
  );

  app.post(
    '/admin/maintenance-windows/:id/cancel',
    {
      config: { errors: [404, 409] },
      schema: {
        tags,
        params: z.object({ id: z.string().uuid() }),
        response: { 200: maintenanceWindowAnswer },
      },
    },
    async (request) => ({
      data: await cancelMaintenanceWindow(ctx, { id: request.params.id, actor: auditActorOf(request) }),
    }),
  );
};
