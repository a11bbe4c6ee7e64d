/** Messages between the benchmark orchestrator (run.ts), its targets and its load workers. */
import type { MapViewport } from '@bot/contracts';

export interface BenchBot {
  hwid: string;
  botToken: string;
  /** A web session token of the owner when this bot has an owner watcher (one bot in ten). */
  ownerToken: string | null;
  accounts: string[];
}

export interface BenchFixture {
  bots: BenchBot[];
  adminToken: string;
}

export type TargetMessage =
  | { type: 'ready'; port: number; fixtureFile: string }
  | {
      type: 'stats';
      cpuMicros: number;
      rss: number;
      heapUsed: number;
      /** The target's event loop so far (`performance.eventLoopUtilization()`, ms busy and idle). */
      eventLoop: { active: number; idle: number };
      hub?: unknown;
      /** The server's own verdict (decision 911); the relay has none. */
      overloaded?: boolean;
    };

export type WorkerCommand =
  | {
      type: 'start';
      url: string;
      bots: BenchBot[];
      adminToken: string | null;
      /** One admin watcher per entry: null for the whole fleet, or the viewport its map offers. */
      adminViewports?: (MapViewport | null)[];
      connectPerSecond: number;
      /** Each bot reports every this many ms (1,000 unless a correctness run asks for fewer reports). */
      reportEveryMs?: number;
      /** Each report asks for the server's answer, as the SDK's do (decision 923). */
      acks?: boolean;
      /** Bots reconnect (and authenticate again) after losing their node, as the SDK does. */
      reconnect?: boolean;
      /**
       * Every bot of the share opens its socket at a random moment within this many ms (no pacing),
       * retrying with the SDK's reconnection settings: the arrival of bots after a restart.
       */
      arrivalSpreadMs?: number;
      /**
       * Every bot keeps trying until it is taken, retrying like the SDK, however long that is (a node
       * past its capacity refuses new bots): `connected` answers once every socket is launched, and
       * `status` tells how many are taken.
       */
      keepTrying?: boolean;
    }
  | { type: 'status' }
  | { type: 'window'; from: number; to: number }
  | { type: 'collect' }
  | { type: 'stop' };

export interface WorkerResult {
  sent: number;
  sentWatched: number;
  ownerReceived: number;
  ownerLatencies: number[];
  adminStates: number;
  adminMessages: number;
  adminLatencies: number[];
  /** Per admin watcher: characters received in the window (Socket.IO packets, ~bytes). */
  adminBytes: number[];
  /** Per admin watcher: `map_cells` messages received in the window. */
  adminCells: number[];
  disconnects: number;
  /** Sockets closed after they were taken (a bot authenticated, a watcher following): dropped. */
  dropped: number;
  refusals: number;
  /** Why sockets closed (Socket.IO reasons, auth_error codes). */
  reasons: Record<string, number>;
}

export type WorkerMessage =
  | { type: 'connected'; bots: number; watchers: number; admins: number; failed: number }
  | { type: 'result'; result: WorkerResult }
  /** Bot sockets connected and authenticated right now. */
  | { type: 'status'; authenticated: number };

/** Sub-millisecond wall clock comparable across processes of one machine. */
export const preciseNow = (): number => performance.timeOrigin + performance.now();

/** The send time travels in the first account's `message` (a field both targets carry as is). */
export const stampOf = (time: number): string => `t=${time.toFixed(3)}`;
export const timeOfStamp = (message: unknown): number | undefined =>
  typeof message === 'string' && message.startsWith('t=') ? Number(message.slice(2)) : undefined;
