import {
  type AdminFeed,
  type BotLogLine,
  type BotState,
  type ClientToServerEvents,
  type MapCells,
  type MapViewport,
  type ServerToClientEvents,
  SOCKET_CLIENT_OPTIONS,
  SOCKET_EVENTS,
} from '@bot/contracts';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { messageOf } from '../error-answer.ts';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Connection state of one watcher socket, as the pages show it. `reconnecting` follows any loss that
 * is not a refusal (network, server restart): the socket comes back by itself and resyncs.
 * `disconnected` is a watch the page itself ended.
 */
export type LiveConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'refused';

export interface SocketClientDeps {
  /** Socket URL from the runtime config; '' means the page's own origin. */
  getUrl: () => string;
  getToken: () => string | null | undefined;
  /** Socket problems are only logged (docs/specification.md §5). */
  log?: (message: string) => void;
  /** socket.io-client's `io` (tests may wrap it). */
  connect?: typeof io;
  /** The hub pushed new public settings (`settings_update`) to this signed-in browser. */
  onSettingsUpdate?: (settings: Record<string, unknown>) => void;
  /** The hub told this user of new in-app notifications (`notification`). */
  onNotification?: () => void;
}

export interface HwidHandlers {
  /** One bot state: the current one at once, then every change. */
  onUpdate: (state: BotState) => void;
  onConnectionChange?: (state: LiveConnectionState) => void;
  onAuthError?: (body: { error: string; code: string }) => void;
}

export interface AdminHandlers {
  /** What the hub sends this socket: the whole fleet, or what the map's viewport shows (decision 206). */
  onFeed?: (feed: AdminFeed) => void;
  onSnapshot: (states: BotState[]) => void;
  /** A batch of changed bot states (latest per bot). */
  onUpdate: (states: BotState[]) => void;
  onDisconnect?: (hwid: string) => void;
  onOnlineCount?: (count: number) => void;
  /** Viewport feed, zoomed out: one node's per-cell counts. */
  onCells?: (cells: MapCells) => void;
  onConnectionChange?: (state: LiveConnectionState) => void;
  onAuthError?: (body: { error: string; code: string }) => void;
}

export interface BotLogHandlers {
  /** New lines of the bot's log (the agent's backlog first, then its tail). */
  onLines: (lines: BotLogLine[]) => void;
  onConnectionChange?: (state: LiveConnectionState) => void;
  onAuthError?: (body: { error: string; code: string }) => void;
}

export const HWID_REQUIRED = 'HWID requis';
export const TOKEN_MISSING = 'Token manquant';

/** docs/specification.md §5 and §7: websocket only, no upgrade, path /socket.io, reconnection 1-5 s, x0.5, 20 s. */
export function socketOptions(query?: Record<string, string>): Partial<ManagerOptions & SocketOptions> {
  return {
    ...SOCKET_CLIENT_OPTIONS,
    // Each watcher has its own connection: closing one never closes another.
    forceNew: true,
    ...(query ? { query } : {}),
  };
}

export type SocketClient = ReturnType<typeof createSocketClient>;

/**
 * The socket client of docs/specification.md §5: one socket per watched hwid, at most one admin socket.
 * Each socket (re)sends `authenticate` on every connect, so a reconnection is authenticated again.
 */
export function createSocketClient(deps: SocketClientDeps) {
  const log = deps.log ?? ((message: string) => console.log(message));
  const connect = deps.connect ?? io;
  const hwidSockets = new Map<string, LiveSocket>();
  /** Open journals ("Journal du bot"): the agent streams its log while one is open (decision 209). */
  const logSockets = new Map<string, LiveSocket>();
  let adminSocket: LiveSocket | undefined;
  let adminFeed: AdminFeed | undefined;
  /** What the admin socket offers to follow (the map's area and filters); sent on every connect. */
  let adminViewport: MapViewport | undefined;

  function open(query: Record<string, string> | undefined): LiveSocket {
    const url = deps.getUrl();
    const options = socketOptions(query);
    return (url ? connect(url, options) : connect(options)) as LiveSocket;
  }

  function watchConnection(
    socket: LiveSocket,
    authenticate: (token: string) => Parameters<ClientToServerEvents['authenticate']>[0],
    handlers: {
      onConnectionChange?: (state: LiveConnectionState) => void;
      onAuthError?: HwidHandlers['onAuthError'];
    },
  ) {
    handlers.onConnectionChange?.('connecting');
    // A refused socket stays "refused" (the server closes it right after `auth_error`).
    let isRefused = false;
    socket.on('connect', () => {
      const token = deps.getToken();
      if (!token) {
        log(TOKEN_MISSING);
        socket.disconnect();
        return;
      }
      socket.emit(SOCKET_EVENTS.authenticate, authenticate(token));
    });
    socket.on(SOCKET_EVENTS.authenticated, () => handlers.onConnectionChange?.('connected'));
    socket.on(SOCKET_EVENTS.settingsUpdate, (settings) => deps.onSettingsUpdate?.(settings));
    socket.on(SOCKET_EVENTS.notification, () => deps.onNotification?.());
    socket.on(SOCKET_EVENTS.authError, (body) => {
      isRefused = true;
      handlers.onConnectionChange?.('refused');
      handlers.onAuthError?.({ ...body, error: messageOf(body) ?? body.error });
    });
    socket.on('disconnect', (reason) => {
      if (isRefused || reason === 'io client disconnect') return;
      handlers.onConnectionChange?.('reconnecting');
      // socket.io-client reconnects by itself after a network loss but treats a server-side close
      // as final; a server that drains for a restart closes every socket that way, so connect
      // again (the manager's backoff takes over while the server is down). On connect the socket
      // authenticates again and the hub sends a fresh snapshot.
      if (reason === 'io server disconnect') socket.connect();
    });
    socket.io.on('reconnect_attempt', () => handlers.onConnectionChange?.('reconnecting'));
  }

  /** Watches one bot; an earlier socket for the same hwid is closed first. */
  function connectToHwid(hwid: string | null | undefined, handlers: HwidHandlers): LiveSocket | undefined {
    if (!hwid) {
      log(HWID_REQUIRED);
      return undefined;
    }
    if (!deps.getToken()) {
      log(TOKEN_MISSING);
      return undefined;
    }
    disconnectHwid(hwid);
    const socket = open({ hwid });
    hwidSockets.set(hwid, socket);
    watchConnection(socket, (token) => ({ token, type: 'client', hwid }), handlers);
    socket.on(SOCKET_EVENTS.botUpdate, (payload) => {
      if (Array.isArray(payload)) for (const state of payload) handlers.onUpdate(state);
      else handlers.onUpdate(payload);
    });
    return socket;
  }

  function disconnectHwid(hwid: string): void {
    const socket = hwidSockets.get(hwid);
    if (!socket) return;
    hwidSockets.delete(hwid);
    socket.removeAllListeners();
    socket.disconnect();
  }

  /** Reads one bot's log while the journal is open; an earlier journal of the same bot is closed first. */
  function connectToBotLog(hwid: string, handlers: BotLogHandlers): LiveSocket | undefined {
    if (!deps.getToken()) {
      log(TOKEN_MISSING);
      return undefined;
    }
    disconnectBotLog(hwid);
    const socket = open(undefined);
    logSockets.set(hwid, socket);
    watchConnection(socket, (token) => ({ token, type: 'log', hwid }), handlers);
    socket.on(SOCKET_EVENTS.botLog, (batch) => {
      if (batch.hwid === hwid) handlers.onLines(batch.lines);
    });
    return socket;
  }

  function disconnectBotLog(hwid: string): void {
    const socket = logSockets.get(hwid);
    if (!socket) return;
    logSockets.delete(hwid);
    socket.removeAllListeners();
    socket.disconnect();
  }

  /** Watches the whole fleet; a new admin socket replaces the old one. */
  function connectAsAdmin(handlers: AdminHandlers): LiveSocket | undefined {
    if (!deps.getToken()) {
      log(TOKEN_MISSING);
      return undefined;
    }
    disconnectAdmin();
    const socket = open(undefined);
    adminSocket = socket;
    let offered: MapViewport | undefined;
    watchConnection(
      socket,
      (token) => {
        offered = adminViewport;
        return { token, type: 'admin', ...(offered ? { viewport: offered } : {}) };
      },
      handlers,
    );
    socket.on(SOCKET_EVENTS.authenticated, ({ feed }) => {
      adminFeed = feed ?? 'full';
      handlers.onFeed?.(adminFeed);
      // The map moved while the hub was checking the socket: it follows the latest viewport.
      if (adminFeed === 'viewport' && adminViewport && adminViewport !== offered)
        socket.emit(SOCKET_EVENTS.mapViewport, adminViewport);
    });
    socket.on(SOCKET_EVENTS.mapCells, (cells) => handlers.onCells?.(cells));
    socket.on(SOCKET_EVENTS.botSnapshot, (states) => handlers.onSnapshot(states));
    socket.on(SOCKET_EVENTS.botUpdate, (payload) =>
      handlers.onUpdate(Array.isArray(payload) ? payload : [payload]),
    );
    socket.on(SOCKET_EVENTS.botDisconnect, (hwid) => handlers.onDisconnect?.(hwid));
    socket.on(SOCKET_EVENTS.onlineCount, (count) => handlers.onOnlineCount?.(count));
    return socket;
  }

  /**
   * The area and filters the admin socket's map shows (undefined: none, e.g. the dashboard). Offered
   * when the socket authenticates; a socket the hub put on the viewport feed is told at once.
   */
  function setAdminViewport(viewport: MapViewport | undefined): void {
    adminViewport = viewport;
    if (viewport && adminFeed === 'viewport' && adminSocket?.connected)
      adminSocket.emit(SOCKET_EVENTS.mapViewport, viewport);
  }

  function disconnectAdmin(): void {
    if (!adminSocket) return;
    const socket = adminSocket;
    adminSocket = undefined;
    adminFeed = undefined;
    socket.removeAllListeners();
    socket.disconnect();
  }

  function disconnectAll(): void {
    for (const hwid of [...hwidSockets.keys()]) disconnectHwid(hwid);
    for (const hwid of [...logSockets.keys()]) disconnectBotLog(hwid);
    disconnectAdmin();
  }

  return {
    connectToHwid,
    disconnectHwid,
    disconnectAll,
    connectAsAdmin,
    disconnectAdmin,
    connectToBotLog,
    disconnectBotLog,
    setAdminViewport,
    /** Open sockets (tests, diagnostics). */
    openHwids: () => [...hwidSockets.keys()],
    hasAdminSocket: () => adminSocket !== undefined,
  };
}
