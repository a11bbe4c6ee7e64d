import {
  SOCKET_RANDOMIZATION_FACTOR,
  SOCKET_RECONNECTION_DELAY_MAX_MS,
  SOCKET_RECONNECTION_DELAY_MS,
} from '@bot/contracts';
import type { Manager } from 'socket.io-client';

/**
 * The specification's reconnection delays: doubling from 1 s to 5 s, ±50 %. The spread is kept at
 * the cap (between 2.5 and 5 s there), so agents refused together stay spread out.
 */
export function reconnectionDelay(attempt: number): number {
  const base = Math.min(SOCKET_RECONNECTION_DELAY_MAX_MS, SOCKET_RECONNECTION_DELAY_MS * 2 ** attempt);
  const shortest = base * (1 - SOCKET_RANDOMIZATION_FACTOR);
  const longest = Math.min(SOCKET_RECONNECTION_DELAY_MAX_MS, base * (1 + SOCKET_RANDOMIZATION_FACTOR));
  return Math.round(shortest + Math.random() * (longest - shortest));
}

/** Where socket.io-client's manager keeps its back-off (not in its typings). */
interface ManagerInternals {
  backoff: { attempts: number; duration(): number };
}

/**
 * Socket.IO's own back-off applies its jitter to a delay that keeps doubling past the cap, then
 * clamps it: from the fourth failure every delay is exactly 5 s, and thousands of agents refused
 * together (an overloaded node, a restart) retry in lockstep. The agent's manager takes ours.
 */
export function useSpreadBackoff(manager: Manager): void {
  const { backoff } = manager as unknown as ManagerInternals;
  backoff.duration = () => reconnectionDelay(backoff.attempts++);
}
