import type { BotState } from '@bot/contracts';
import type { AppContext } from '../../context.ts';
import type { ConnectedViewer } from './viewers.ts';

export type { ConnectedViewer } from './viewers.ts';

/** Every online bot with its latest state (the admin map, users online). */
export function listOnlineBots(ctx: AppContext): Promise<BotState[]> {
  return ctx.realtime.store.list();
}

/** Number of online bots. */
export function countOnline(ctx: AppContext): Promise<number> {
  return ctx.realtime.store.count();
}

/** The latest state of one online bot, or undefined. */
export function findBotState(ctx: AppContext, hwid: string): Promise<BotState | undefined> {
  return ctx.realtime.store.get(hwid);
}

/** Disconnects the bot agent of a PC (it gets `auth_error` BOT_KICKED); true when it was online. */
export function kickBot(ctx: AppContext, hwid: string): Promise<boolean> {
  return ctx.realtime.kickBot(hwid);
}

/** Browser sockets (client and admin watchers) connected to any node. */
export function listConnectedViewers(ctx: AppContext): Promise<ConnectedViewer[]> {
  return ctx.realtime.listViewers();
}

/** Still-buffered history of one bot. */
export function findPendingBotHistory(ctx: AppContext, userId: string, hwid: string) {
  return ctx.realtime.recorder.pendingFor(userId, hwid);
}
