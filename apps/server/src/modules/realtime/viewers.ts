import type { ConnectedViewer } from '../../core/live-fleet.ts';
import type { HubServer } from './realtime.types.ts';
import { rooms } from './rooms.ts';

/** Browser sockets of every node (this node's only while the others are unreachable). */
export async function listViewers(io: HubServer, isDegraded: boolean): Promise<ConnectedViewer[]> {
  const browsers = isDegraded ? io.local.in(rooms.browsers) : io.in(rooms.browsers);
  const sockets = await browsers.fetchSockets().catch(() => io.local.in(rooms.browsers).fetchSockets());
  const viewers: ConnectedViewer[] = [];
  for (const { id, data } of sockets) {
    const { kind, userId, username, hwid, ip, connectedAt } = data;
    if ((kind === 'client' || kind === 'admin') && userId && username) {
      viewers.push({ socketId: id, userId, username, type: kind, hwid: hwid ?? null, ip, connectedAt });
    }
  }
  return viewers;
}
