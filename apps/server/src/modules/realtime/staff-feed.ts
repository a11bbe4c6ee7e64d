import { type MapViewport, SOCKET_EVENTS } from '@bot/contracts';
import type { Audience } from './audience.ts';
import type { BotStateStore } from './bot-state-store.ts';
import type { MapViewports } from './map-viewports.ts';
import type { HubSocket } from './realtime.types.ts';
import { rooms } from './rooms.ts';

export interface StaffFeedDeps {
  store: BotStateStore;
  audience: Audience;
  viewports: MapViewports;
  /** Online bots above which a map that offers a viewport follows it. */
  fullFeedMaxBots: number;
}

/**
 * Admits a staff map: the whole fleet (docs/specification.md §5), or, when the map offered a viewport and
 * the fleet is larger than the full feed carries well, only what its viewport shows (decision 206).
 */
export async function admitStaffMap(
  deps: StaffFeedDeps,
  socket: HubSocket,
  viewport: MapViewport | undefined,
): Promise<void> {
  const online = await deps.store.count();
  // Gone meanwhile: joining now would leave a dead member in the room (watched by nobody, forever).
  if (!socket.connected) return;
  if (viewport && online > deps.fullFeedMaxBots) {
    socket.data.feed = 'viewport';
    await socket.join(rooms.mapViewers);
    socket.emit(SOCKET_EVENTS.authenticated, { type: 'admin', feed: 'viewport' });
    socket.emit(SOCKET_EVENTS.onlineCount, online);
    deps.viewports.set(socket.id, viewport);
    return;
  }
  socket.data.feed = 'full';
  await socket.join(rooms.admins);
  deps.audience.joined(rooms.admins);
  socket.emit(SOCKET_EVENTS.authenticated, { type: 'admin', feed: 'full' });
  socket.emit(SOCKET_EVENTS.botSnapshot, await deps.store.list());
  socket.emit(SOCKET_EVENTS.onlineCount, online);
}
