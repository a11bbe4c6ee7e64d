import {
  type AdminFeed,
  type ClientToServerEvents,
  type ErrorCode,
  type ErrorDetails,
  type ErrorDetailsArgs,
  errorMessage,
  type MapViewport,
  type ServerToClientEvents,
} from '@bot/contracts';
import type { Server, Socket } from 'socket.io';

/** `log`: a journal socket, open while someone reads a bot's log (decision 209). */
type PeerKind = 'client' | 'admin' | 'bot' | 'log';

/** What the hub remembers about each socket (Socket.IO's `socket.data`; other nodes read it too). */
export interface SocketData {
  kind?: PeerKind;
  userId?: string;
  username?: string;
  sessionId?: string;
  /** When the web or bot session behind the socket expires (ms since epoch). */
  sessionExpiresAt?: number;
  hwid?: string;
  /** Bot agents: the version checked when their session opened (what every page shows). */
  version?: string;
  /** Admin sockets: the whole fleet, or only what their map's viewport shows. */
  feed?: AdminFeed;
  ip: string;
  queryHwid: string | undefined;
  connectedAt: string;
  /** Flood guard: messages in the current 10 s window. */
  windowStartedAt: number;
  windowCount: number;
  /** Throttle: bot updates allowed right now (token bucket). */
  updateTokens: number;
  tokensAt: number;
  dropped: number;
}

/** A staff map's viewport as nodes tell each other (`null`: the map closed). */
export interface AnnouncedViewport {
  socketId: string;
  viewport: MapViewport | null;
}

type IncomingEvents = { [K in keyof ClientToServerEvents]: (payload: unknown, ack?: unknown) => void };
/**
 * What a node sends its peers for their sockets: states for a bot's watchers or the staff's fleet
 * feed, or the bots' unwritten minutes for their watchers (`minutes`, decision 013).
 */
export type PeerAudience = 'watchers' | 'staff' | 'minutes';

/** Events between nodes (Socket.IO `serverSideEmit`). */
interface InterNodeEvents {
  domainEvent: (name: string, payload: unknown) => void;
  /** Staff maps' viewports, so every node serves them its bots. */
  mapViewports: (entries: AnnouncedViewport[]) => void;
  /** A socket of the sending node joined `room` (`ClusterAudience`). */
  watching: (room: string) => void;
  /** `count` bot states or minute updates (JSON bytes, `BotFanOut`) for the receiving node's sockets. */
  botStates: (audience: PeerAudience, count: number, states: Uint8Array) => void;
}
export type HubServer = Server<IncomingEvents, ServerToClientEvents, InterNodeEvents, SocketData>;
export type HubSocket = Socket<IncomingEvents, ServerToClientEvents, InterNodeEvents, SocketData>;

export interface Refusal {
  error: string;
  code: ErrorCode;
  details?: ErrorDetails<ErrorCode>;
}

/** A socket's refusal, worded by the contracts' table like every HTTP one (decision 012). */
export function refusal<C extends ErrorCode>(code: C, ...details: ErrorDetailsArgs<C>): Refusal {
  const error = errorMessage(code, ...details);
  return details[0] === undefined ? { error, code } : { error, code, details: details[0] };
}

/** Sends `auth_error {error, code, details?}` then closes the socket (counted by code). */
export type RefuseSocket = <C extends ErrorCode>(
  socket: HubSocket,
  code: C,
  ...details: ErrorDetailsArgs<C>
) => void;

/** The node's own sockets in a room (never other nodes': each node acts on its own). */
export function localSocketsIn(io: HubServer, room: string): HubSocket[] {
  const ids = io.sockets.adapter.rooms.get(room);
  if (!ids) return [];
  const found: HubSocket[] = [];
  for (const id of ids) {
    const socket = io.sockets.sockets.get(id);
    if (socket) found.push(socket);
  }
  return found;
}
