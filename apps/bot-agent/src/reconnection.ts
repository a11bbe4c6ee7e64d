import {
  SOCKET_RANDOMIZATION_FACTOR,
  SOCKET_RECONNECTION_DELAY_MAX_MS,
  SOCKET_RECONNECTION_DELAY_MS,
} from '@bot/contracts';

/**
 * the specification's reconnection delays (Socket.IO's own backoff: doubling from 1 s to 5 s, ±50 %), for the
 * reconnections the Socket.IO manager does not do itself: after the server closed the socket.
 */
export function reconnectionDelay(attempt: number): number {
  const base = Math.min(SOCKET_RECONNECTION_DELAY_MAX_MS, SOCKET_RECONNECTION_DELAY_MS * 2 ** attempt);
  const jitter = base * SOCKET_RANDOMIZATION_FACTOR * (Math.random() * 2 - 1);
  return Math.min(SOCKET_RECONNECTION_DELAY_MAX_MS, Math.max(0, Math.round(base + jitter)));
}
