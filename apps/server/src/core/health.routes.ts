import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from './errors.ts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['health'];
  /** Liveness: the process answers. */
  app.get(
    '/healthz',
    { schema: { tags, response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  /** Readiness: the database answers. */
  app.get(
    '/readyz',
    { schema: { tags, response: { 200: z.object({ status: z.literal('ready'), engine: z.string() }) } } },
    async () => {
      try {
        await app.ctx.db.execute(sql`select 1`);
      } catch {
        throw new AppError('INTERNAL', { message: 'Base de données indisponible.' });
      }
      return { status: 'ready' as const, engine: app.ctx.engine };
    },
  );
};
