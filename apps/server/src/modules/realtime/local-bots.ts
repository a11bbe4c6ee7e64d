import type { BotState } from '@bot/contracts';
import type { HubSocket } from './realtime.types.ts';

/** One bot agent connected to this node. */
export interface BotConnection {
  socket: HubSocket;
  userId: string;
  hwid: string;
  state: BotState;
  lastSeenAt: number;
  /** When its state was last written to the store. */
  storedAt: number;
  allowedAccounts: Set<string>;
}

/**
 * The bot agents this node holds, by hwid. `BotPresence` adds and removes them; the fan-out and
 * the staff maps only read them, so the three are built in that order (this first) with no part
 * pointing at one built later.
 */
export class LocalBots extends Map<string, BotConnection> {
  /** False once the state no longer belongs to a live connection of this node (a stale queued state). */
  isCurrent(state: BotState): boolean {
    return this.get(state.hwid)?.state === state;
  }

  /** The states of the bots this node holds (staff maps in viewport mode read them). */
  *states(): IterableIterator<BotState> {
    for (const connection of this.values()) yield connection.state;
  }
}
