import type { RealtimeConfig } from '../../config.ts';
import type { BackgroundLoop } from '../../core/background.ts';
import type { RedisConnection } from '../../core/redis.ts';
import type { Audience } from './audience.ts';
import type { BotFanOut } from './bot-fan-out.ts';
import type { BotLogRelay } from './bot-log-relay.ts';
import type { BotPresence } from './bot-presence.ts';
import type { MapViewports } from './map-viewports.ts';
import type { RealtimeMetrics } from './realtime.metrics.ts';
import type { SocketAccess } from './socket-access.ts';

/** How often each node shares which rooms it watches (a watcher elsewhere waits at most this). */
export const AUDIENCE_REFRESH_MS = 1_000;
/** How often streaming journals are checked: a bot stops within this once its last reader left. */
const JOURNAL_TICK_MS = 1_000;

interface LoopParts {
  config: RealtimeConfig;
  redis: RedisConnection | undefined;
  fanOut: BotFanOut;
  presence: BotPresence;
  access: SocketAccess;
  viewports: MapViewports;
  audience: Audience;
  metrics: RealtimeMetrics;
  botLog: BotLogRelay;
}

/**
 * The hub's background loops, which `app.ts` starts and stops, each under the name its failures
 * are logged with (docs/architecture.md, "Background work", lists them; test/docs-truth.test.ts).
 */
export function realtimeLoops(parts: LoopParts): BackgroundLoop[] {
  const { config, redis, fanOut, presence, metrics } = parts;
  const loops: BackgroundLoop[] = [
    {
      name: 'envoi groupé au staff',
      everyMs: config.adminFlushMs,
      run: () => {
        fanOut.flush();
        return presence.persist();
      },
    },
    {
      name: 'bots silencieux',
      // A third of the timeout, so a silent bot goes offline at most a third late.
      everyMs: Math.min(1000, Math.max(50, (config.offlineTimeoutMs ?? 3000) / 3)),
      run: async () => {
        metrics.silentBots.inc(await presence.sweepSilent());
        if (redis?.isReady()) metrics.reapedBots.inc(await presence.reapOrphans());
      },
    },
    {
      name: 'expiration des sessions',
      everyMs: config.expirySweepMs,
      run: () => parts.access.sweepExpired(),
    },
    { name: 'comptes par case de la carte', everyMs: config.mapCellsMs, run: () => parts.viewports.tick() },
    // Journals nobody reads any more stop; dropped lines are told (decision 209).
    { name: 'journaux des bots', everyMs: JOURNAL_TICK_MS, run: () => parts.botLog.tick() },
  ];
  if (redis) {
    loops.push({
      name: 'salles suivies',
      everyMs: AUDIENCE_REFRESH_MS,
      run: () => (redis.isReady() ? parts.audience.refresh() : undefined),
    });
  }
  return loops;
}
