import { type ErrorCode, LEASE_REVOKING_CODES, SOCKET_EVENTS } from '@bot/contracts';
import type { RealtimeConfig } from '../../config.ts';
import type { RealtimeMetrics } from './realtime.metrics.ts';
import { type RefuseSocket, refusal, type SocketData } from './realtime.types.ts';

const FLOOD_WINDOW_MS = 10_000;

/** The per-socket counters a fresh connection starts with. */
export function initialGuardState(
  config: RealtimeConfig,
  now: number,
): Pick<SocketData, 'windowStartedAt' | 'windowCount' | 'updateTokens' | 'tokensAt' | 'dropped'> {
  return {
    windowStartedAt: now,
    windowCount: 0,
    updateTokens: config.botUpdatesPerSecond,
    tokensAt: now,
    dropped: 0,
  };
}

/** Counts every incoming message; true once the socket sent too many in the window. */
export function isFlooding(data: SocketData, config: RealtimeConfig, now = Date.now()): boolean {
  if (now - data.windowStartedAt >= FLOOD_WINDOW_MS) {
    data.windowStartedAt = now;
    data.windowCount = 0;
  }
  data.windowCount += 1;
  return data.windowCount > config.floodMessagesPer10s;
}

/** Token bucket: a few bot updates per second, extra ones dropped (false). */
export function takeUpdateToken(data: SocketData, config: RealtimeConfig, now = Date.now()): boolean {
  const perSecond = config.botUpdatesPerSecond;
  data.updateTokens = Math.min(perSecond, data.updateTokens + ((now - data.tokensAt) / 1000) * perSecond);
  data.tokensAt = now;
  if (data.updateTokens < 1) {
    data.dropped += 1;
    return false;
  }
  data.updateTokens -= 1;
  return true;
}

/** After a refused update: how long until the bucket holds one token again (the report's `RATE_LIMITED`). */
export function updateTokenWaitMs(data: SocketData, config: RealtimeConfig): number {
  return Math.ceil(((1 - data.updateTokens) / config.botUpdatesPerSecond) * 1000);
}

const REVOKING: ReadonlySet<ErrorCode> = new Set(LEASE_REVOKING_CODES);

/**
 * Sends `auth_error {error, code}` then closes the socket, counted by code for the operators. A bot
 * agent refused for a reason that ends its licence (ban, no bot permission left, version below the
 * minimum) is first sent `lease_revoked`: it must not keep running offline on the lease it holds.
 */
export function refuserCounting(metrics: RealtimeMetrics): RefuseSocket {
  return (socket, code, ...details) => {
    if (!socket.connected) return;
    metrics.refusals.inc({ code });
    if (socket.data.kind === 'bot' && REVOKING.has(code))
      socket.emit(SOCKET_EVENTS.leaseRevoked, refusal(code, ...details));
    socket.emit(SOCKET_EVENTS.authError, refusal(code, ...details));
    socket.disconnect(true);
  };
}
