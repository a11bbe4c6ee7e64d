import { errorMessage, isStaff } from '@bot/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { loadSession } from '../../core/guards.ts';
import { getUserPermissions } from '../access/index.ts';
import { getSettings } from './settings.service.ts';

/**
 * Paths answered during maintenance so staff can sign in and the web app can show the
 * maintenance page (it reads the public settings and the signed-in user's permissions).
 */
const OPEN_DURING_MAINTENANCE = [
  /^\/api\/auth\/(login|second-factor|logout|check-permission)$/,
  /^\/api\/settings\/public$/,
  /^\/api\/(healthz|readyz|metrics)$/,
  // Who is signed in and what they hold: enough for the web app to choose the maintenance page.
  /^\/api\/me\/(info|permissions)$/,
  /^\/api\/docs(\/|$)/,
];

/**
 * Maintenance mode: non-staff API calls get 503 `{error, code: 'MAINTENANCE'}` with the message
 * from the settings. Registered on the `/api` instance (not encapsulated) so it covers every route.
 */
export const maintenanceGuard: FastifyPluginAsync = async (api) => {
  api.addHook('onRequest', async (request, reply) => {
    // Open paths first: health probes must never read the database (liveness during an outage).
    const path = request.url.split('?')[0] ?? '';
    if (OPEN_DURING_MAINTENANCE.some((pattern) => pattern.test(path))) return;
    const { ctx } = request.server;
    const settings = await getSettings(ctx);
    if (!settings.maintenanceMode) return;
    const session = await loadSession(request);
    if (session) {
      const permissions = await getUserPermissions(ctx, session.userId);
      if (isStaff({ isAdministrator: session.isAdministrator, permissions })) return;
    }
    const notice = settings.maintenanceMessage.trim();
    const details = notice ? { notice } : undefined;
    return reply
      .status(503)
      .header('Retry-After', '120')
      .send({ error: errorMessage('MAINTENANCE', details), code: 'MAINTENANCE', details });
  });
};
// Like fastify-plugin: the hook applies to the instance registering the guard, not a child context.
(maintenanceGuard as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
