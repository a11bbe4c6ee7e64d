import { auditEntrySchema, auditQuery, dataAnswer, listAnswer } from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvAnswer, sendCsv } from '../../core/admin-list.ts';
import { requirePermission, sessionOf } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import { listAudit, listAuditActions, streamAudit } from './audit.service.ts';

const tags = ['admin: audit'];

const json = (value: unknown): string => (value === null || value === undefined ? '' : JSON.stringify(value));

/** `/admin/audit`: the trail of staff actions and security events, filtered, exported. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requirePermission('can_manageAudit'));

  app.get(
    '/admin/audit',
    { schema: { tags, querystring: auditQuery, response: { 200: listAnswer(auditEntrySchema) } } },
    async (request) => listAudit(ctx, request.query, { id: sessionOf(request).userId }),
  );

  app.get(
    '/admin/audit/actions',
    { schema: { tags, response: { 200: dataAnswer(z.array(z.string())) } } },
    async () => ({ data: await listAuditActions(ctx) }),
  );

  app.get(
    '/admin/audit/export.csv',
    { schema: { tags, querystring: auditQuery, response: csvAnswer } },
    async (request, reply) => {
      const entries = streamAudit(ctx, request.query, { id: sessionOf(request).userId });
      return sendCsv(reply, {
        filename: 'audit.csv',
        header: [
          'id',
          'date',
          'auteur',
          'id auteur',
          'action',
          'type de cible',
          'id cible',
          'cible',
          'avant',
          'après',
          'ip',
        ],
        rows: (async function* () {
          for await (const entry of entries) {
            yield [
              entry.id,
              entry.at,
              entry.actorUsername ?? '',
              entry.actorId ?? '',
              entry.action,
              entry.targetType ?? '',
              entry.targetId ?? '',
              entry.targetLabel ?? '',
              json(entry.before),
              json(entry.after),
              entry.ip ?? '',
            ];
          }
        })(),
      });
    },
  );
};
