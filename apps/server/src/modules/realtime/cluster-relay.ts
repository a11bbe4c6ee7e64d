import type { EventBus } from '../../core/events.ts';
import type { RedisConnection } from '../../core/redis.ts';
import type { BotFanOut } from './bot-fan-out.ts';
import type { BotPresence } from './bot-presence.ts';
import type { MapViewports } from './map-viewports.ts';
import type { AnnouncedViewport, HubServer } from './realtime.types.ts';

/**
 * The node's link to the others, over the Socket.IO adapter's `serverSideEmit` (decision 800).
 * Without Redis there are no others: nothing is relayed and the node is never degraded.
 */
export class ClusterRelay {
  constructor(
    private readonly io: HubServer,
    private readonly redis: RedisConnection | undefined,
  ) {}

  /** Redis configured but unreachable: this node serves its own sockets alone meanwhile. */
  readonly isDegraded = (): boolean => this.redis !== undefined && !this.redis.isReady();

  /** Staff maps' viewports on this node, for the other nodes to serve them their bots. */
  readonly announceViewports = (entries: AnnouncedViewport[]): void => {
    if (this.redis && !this.isDegraded()) this.io.serverSideEmit('mapViewports', entries);
  };

  /**
   * Domain events reach every node (revocations, bans, settings): each acts on its own sockets.
   * Staff maps' viewports too: each node serves them its own bots. Bot states come from the nodes
   * holding the bots, for the watchers here. Answers how to stop relaying (shutdown).
   */
  start(parts: { events: EventBus; viewports: MapViewports; fanOut: BotFanOut; presence: BotPresence }) {
    const { redis, io } = this;
    const { events, viewports, fanOut, presence } = parts;
    if (!redis) return () => undefined;
    // Redis (back) up: the bots' states go to it at once, not at their next periodic write.
    const storeAllAgain = () => presence.storeAllAgain();
    redis.commands.on('ready', storeAllAgain);
    events.relayTo((name, payload) => io.serverSideEmit('domainEvent', name, payload));
    io.on('domainEvent', (name: string, payload: unknown) => events.receiveFromPeer(name, payload));
    io.on('mapViewports', (entries: AnnouncedViewport[]) => viewports.receive(entries));
    io.on('botStates', (...message) => fanOut.fromPeer(...message));
    return () => {
      events.relayTo(undefined);
      redis.commands.off('ready', storeAllAgain);
    };
  }
}
