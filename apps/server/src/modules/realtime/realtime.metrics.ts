import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * What the hub exposes to Prometheus: sockets by type, bots online, bot updates in and out, and
 * what it turned away (refused sockets, dropped reports, bots closed for silence or reaped).
 */
export interface RealtimeMetrics {
  /** Bot reports accepted (after throttling and validation). */
  updatesIn: Counter;
  /**
   * Bot states this node sent its own sockets, by audience: `owner` (one per watched report),
   * `admin` (states in batches). With several nodes each node counts what it delivered.
   */
  statesOut: Counter<'audience'>;
  /** Sockets closed with an `auth_error`, by its code (timeouts, floods, revocations…). */
  refusals: Counter<'code'>;
  /** Bot reports dropped: `throttled` (over the per-socket rate) or `invalid` (failed the schema). */
  reportsDropped: Counter<'reason'>;
  /** Bots of this node closed for staying silent past the offline timeout. */
  silentBots: Counter;
  /** Bots a killed node held, announced offline by this node once silent. */
  reapedBots: Counter;
}

export function createRealtimeMetrics(
  registry: Registry,
  read: { socketKinds(): Iterable<string | undefined>; countOnline(): Promise<number> },
): RealtimeMetrics {
  new Gauge({
    name: 'socket_connections',
    help: 'Open Socket.IO connections on this node by peer type',
    labelNames: ['type'],
    registers: [registry],
    collect() {
      const counts = { client: 0, admin: 0, bot: 0, log: 0, unauthenticated: 0 };
      for (const kind of read.socketKinds()) counts[(kind ?? 'unauthenticated') as keyof typeof counts] += 1;
      for (const [type, count] of Object.entries(counts)) this.set({ type }, count);
    },
  });
  new Gauge({
    name: 'bots_online',
    help: 'Bots online (whole fleet as the state store sees it)',
    registers: [registry],
    async collect() {
      this.set(await read.countOnline());
    },
  });
  return {
    updatesIn: new Counter({
      name: 'bot_updates_received_total',
      help: 'Bot reports accepted',
      registers: [registry],
    }),
    statesOut: new Counter({
      name: 'bot_states_sent_total',
      help: 'Bot states sent to watchers, by audience',
      labelNames: ['audience'],
      registers: [registry],
    }),
    refusals: new Counter({
      name: 'socket_refusals_total',
      help: 'Sockets closed with an auth_error, by code',
      labelNames: ['code'],
      registers: [registry],
    }),
    reportsDropped: new Counter({
      name: 'bot_reports_dropped_total',
      help: 'Bot reports dropped, by reason (throttled, invalid)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    silentBots: new Counter({
      name: 'bots_silent_closed_total',
      help: 'Bots of this node closed for silence',
      registers: [registry],
    }),
    reapedBots: new Counter({
      name: 'bots_reaped_total',
      help: 'Bots of a dead node announced offline by this node',
      registers: [registry],
    }),
  };
}
