import { SOCKET_EVENTS } from '@bot/contracts';
import type { AppContext } from '../../context.ts';
import { runInBackground } from '../../core/background.ts';
import { updateFor } from '../releases/index.ts';
import type { HubServer, HubSocket } from './realtime.types.ts';

/**
 * A withdrawn build (decision 910): every node tells its own agents running it, at once, where to go
 * back (`update_available` with a signed rollback manifest); the others learn it at their next session.
 */
export function tellAgentsOfYanks(ctx: AppContext, io: HubServer): () => void {
  return ctx.events.on('release.yanked', ({ version, channel }) => {
    for (const socket of io.sockets.sockets.values() as Iterable<HubSocket>) {
      const { kind, hwid } = socket.data;
      if (kind !== 'bot' || !hwid || socket.data.version !== version) continue;
      runInBackground(ctx.log, 'retour d’un bot à la version précédente', async () => {
        const update = await updateFor(ctx, { version, channel, hwid });
        if (update && socket.connected) socket.emit(SOCKET_EVENTS.updateAvailable, update);
      });
    }
  });
}
