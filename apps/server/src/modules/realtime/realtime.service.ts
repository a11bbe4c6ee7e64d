import type { BotState } from '@bot/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { type ConnectedViewer, RealtimeHub } from './realtime.hub.ts';

export type { ConnectedViewer } from './realtime.hub.ts';

const hubs = new WeakMap<AppContext, RealtimeHub>();

/** Attaches the Socket.IO hub to the app's HTTP server; closed before the server closes. */
export function attachRealtime(app: FastifyInstance): RealtimeHub {
  const hub = new RealtimeHub(app.ctx, app, app.ctx.redis);
  hubs.set(app.ctx, hub);
  app.addHook('preClose', async () => {
    await hub.close();
  });
  return hub;
}

export function getRealtimeHub(ctx: AppContext): RealtimeHub {
  const hub = hubs.get(ctx);
  if (!hub) throw new Error('realtime hub not attached');
  return hub;
}

/** Every online bot with its latest state (the admin map, users online). */
export function listOnlineBots(ctx: AppContext): Promise<BotState[]> {
  return getRealtimeHub(ctx).store.list();
}

/** Number of online bots. */
export function countOnline(ctx: AppContext): Promise<number> {
  return getRealtimeHub(ctx).store.count();
}

/** The latest state of one online bot, or undefined. */
export function findBotState(ctx: AppContext, hwid: string): Promise<BotState | undefined> {
  return getRealtimeHub(ctx).store.get(hwid);
}

/** Disconnects the bot agent of a PC (it gets `auth_error` BOT_KICKED); true when it was online. */
export function kickBot(ctx: AppContext, hwid: string): Promise<boolean> {
  return getRealtimeHub(ctx).kickBot(hwid);
}

/** Browser sockets (client and admin watchers) connected to any node. */
export function listConnectedViewers(ctx: AppContext): Promise<ConnectedViewer[]> {
  return getRealtimeHub(ctx).listViewers();
}

/** Writes buffered bot history now (tests, shutdown). */
export function flushBotHistory(ctx: AppContext): Promise<void> {
  return getRealtimeHub(ctx).recorder.flush();
}

/** Still-buffered history of one bot. */
export function findPendingBotHistory(ctx: AppContext, userId: string, hwid: string) {
  return getRealtimeHub(ctx).recorder.pendingFor(userId, hwid);
}
