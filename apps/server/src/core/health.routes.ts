import { randomUUID } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERRORS, errorMessage } from '@bot/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import { isDiskFull } from '../db/errors.ts';
import { OVERLOADED_RETRY_AFTER_S } from './load-monitor.ts';
import { PRODUCT_VERSION } from './paths.ts';

/** How long one readiness check may take: a probe must answer quickly, even during an outage. */
const CHECK_TIMEOUT_MS = 2_000;

const checkNames = ['database', 'redis', 'dataDir'] as const;
type CheckName = (typeof checkNames)[number];
/** `degraded`: Redis is down; the node still serves (alone) and stays in rotation. */
const checkResult = z.enum(['ok', 'failed', 'degraded']);
const checks = z.partialRecord(z.enum(checkNames), checkResult);

/** Why an overloaded node refuses work: its last figures beside their thresholds (LoadMonitor). */
const loadReading = z.object({
  cause: z.enum(['eventLoop', 'openFiles']),
  utilization: z.number(),
  enterUtilization: z.number(),
  exitUtilization: z.number(),
  openFilesShare: z.number(),
  enterOpenFiles: z.number(),
  exitOpenFiles: z.number(),
  delayP99Ms: z.number(),
});

/** French names of what can fail, for the readiness answer read by people. */
const CHECK_LABELS: Record<CheckName, string> = {
  database: 'base de données',
  redis: 'Redis',
  dataDir: 'dossier de données (DATA_DIR) non inscriptible',
};

/** A failed check's name for people: a full disk is said as such, not as a folder that cannot be written. */
function labelOf(name: CheckName, outcome: PromiseSettledResult<unknown> | undefined): string {
  if (name === 'dataDir' && outcome?.status === 'rejected' && isDiskFull(outcome.reason))
    return 'dossier de données (DATA_DIR) : disque plein, libérez de la place';
  return CHECK_LABELS[name];
}

function withTimeout(work: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('délai dépassé')), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `/healthz` is liveness: the process answers, nothing else is touched (a database outage must not
 * get the node restarted). `/readyz` is readiness: the database, Redis when configured and a
 * writable DATA_DIR; 503 names what fails, or says the node is overloaded (`OVERLOADED`). Maintenance
 * mode affects neither (maintenance guard). The probe is handed the database it checks: `app.ctx`, a
 * route's context, has none (docs/architecture.md, "One calling convention").
 */
export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  const { ctx } = app;
  const tags = ['health'];
  const probes: Partial<Record<CheckName, () => Promise<unknown>>> = {
    database: () => database.db.execute(sql`select 1`),
    dataDir: async () => {
      await mkdir(ctx.config.dataDir, { recursive: true });
      const probe = path.join(ctx.config.dataDir, `.readyz-${randomUUID()}`);
      await writeFile(probe, 'readyz');
      await unlink(probe);
    },
    ...(ctx.redis ? { redis: () => ctx.redis!.commands.ping() } : {}),
  };
  /**
   * Without Redis a node still answers HTTP and serves its own sockets: taking every node out of
   * the load balancer for it would turn a degraded platform into a dead one.
   */
  const isOptional = (name: CheckName) => name === 'redis';

  app.get(
    '/healthz',
    { schema: { tags, response: { 200: z.object({ status: z.literal('ok'), version: z.string() }) } } },
    async () => ({ status: 'ok' as const, version: PRODUCT_VERSION }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags,
        response: {
          200: z.object({ status: z.literal('ready'), engine: z.string(), checks }),
          503: z.object({
            error: z.string(),
            code: z.enum(['SERVICE_UNAVAILABLE', 'OVERLOADED']),
            details: z.object({ failing: z.array(z.string()) }).optional(),
            checks,
            load: loadReading.optional(),
          }),
        },
      },
    },
    async (_request, reply) => {
      // Overloaded, the node asks for no new work (load balancers and orchestrators stop sending
      // it; what it holds goes on, issue 36), at once: its probes would only queue behind the load,
      // and one timing out would blame the disk or the database instead.
      if (ctx.load.isOverloaded)
        return reply
          .status(503)
          .header('Retry-After', String(OVERLOADED_RETRY_AFTER_S))
          .send({
            error: ERRORS.OVERLOADED.message,
            code: 'OVERLOADED' as const,
            checks: {},
            load: ctx.load.reading,
          });
      const entries = Object.entries(probes) as [CheckName, () => Promise<unknown>][];
      const outcomes = await Promise.allSettled(entries.map(([, probe]) => withTimeout(probe())));
      const results = Object.fromEntries(
        entries.map(([name], index) => [
          name,
          outcomes[index]?.status === 'fulfilled' ? 'ok' : isOptional(name) ? 'degraded' : 'failed',
        ]),
      ) as Record<CheckName, z.infer<typeof checkResult>>;
      const failing = entries.map(([name]) => name).filter((name) => results[name] === 'failed');
      if (failing.length === 0) return { status: 'ready' as const, engine: ctx.engine, checks: results };
      for (const [index, [name]] of entries.entries()) {
        const outcome = outcomes[index];
        if (outcome?.status === 'rejected')
          app.log.warn({ err: outcome.reason, check: name }, 'vérification de disponibilité en échec');
      }
      const details = {
        failing: failing.map((name) =>
          labelOf(name, outcomes[entries.findIndex(([entry]) => entry === name)]),
        ),
      };
      return reply
        .status(503)
        .header('Retry-After', '5')
        .send({
          error: errorMessage('SERVICE_UNAVAILABLE', details),
          code: 'SERVICE_UNAVAILABLE' as const,
          details,
          checks: results,
        });
    },
  );
};
