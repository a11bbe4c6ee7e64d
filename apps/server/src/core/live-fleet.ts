import type { BotState } from '@bot/contracts';

/** A browser socket (an owner's page, a staff map) as presence lists show it. */
export interface ConnectedViewer {
  socketId: string;
  userId: string;
  username: string;
  type: 'client' | 'admin';
  hwid: string | null;
  ip: string;
  connectedAt: string;
}

/**
 * The fleet as it is right now, for the domain modules: which bots are online and what they
 * report, who watches them, and kicking one. The real-time module implements it (`ctx.live`); the
 * domain modules read it through this port and never import the real-time module itself.
 */
export interface LiveFleet {
  /** Every online bot with its latest state (the whole cluster's, from the shared store). */
  onlineBots(): Promise<BotState[]>;
  /** The latest state of one online bot, or undefined. */
  botState(hwid: string): Promise<BotState | undefined>;
  /** Disconnects the bot agent of a PC (it gets `auth_error` BOT_KICKED); true when it was online. */
  kickBot(hwid: string): Promise<boolean>;
  /** Browser sockets connected to any node (this node's only while the others are unreachable). */
  connectedViewers(): Promise<ConnectedViewer[]>;
}
