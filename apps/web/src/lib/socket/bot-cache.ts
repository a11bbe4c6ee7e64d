import { type BotHistoryPoint, type BotState, type BotStatus, SOCKET_EVENTS } from '@bot/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { applyCommandUpdate, liveKeys, setConnection } from './live-keys.ts';
import type { LiveConnectionState, SocketClient } from './socket-client.ts';

// The live state of one bot as the customer's bot page follows it: its state and its event log.

export interface LiveEvent {
  id: number;
  at: string;
  kind: 'online' | 'offline' | 'status' | 'account' | 'connection';
  text: string;
  account?: string;
  status?: BotStatus;
}

const MAX_LIVE_EVENTS = 200;

let eventCounter = 0;

/** The events a new state brings compared with the previous one. */
export function diffBotStates(
  previous: BotState | null | undefined,
  next: BotState,
  at = new Date(),
): LiveEvent[] {
  const events: LiveEvent[] = [];
  const when = at.toISOString();
  const push = (event: Omit<LiveEvent, 'id' | 'at'>) =>
    events.push({ id: ++eventCounter, at: when, ...event });
  if (!previous || previous.online !== next.online) {
    // Connected: when its session opened (a bot already online when the page opens is not new).
    if (next.online)
      events.push({ id: ++eventCounter, at: next.connectedAt, kind: 'online', text: 'Bot connecté' });
    else push({ kind: 'offline', text: 'Bot déconnecté' });
  }
  const before = new Map((previous?.accounts ?? []).map((account) => [account.name, account]));
  for (const account of next.accounts) {
    const old = before.get(account.name);
    if (!old) {
      if (previous)
        push({ kind: 'account', account: account.name, status: account.status, text: 'Compte apparu' });
    } else if (old.status !== account.status) {
      push({ kind: 'status', account: account.name, status: account.status, text: 'Changement de statut' });
    }
    before.delete(account.name);
  }
  for (const name of before.keys()) push({ kind: 'account', account: name, text: 'Compte retiré' });
  return events;
}

/**
 * `points` with each of `pushed` in place of the point of its minute and account: a pushed point is
 * that minute's whole total so far, so it replaces, never adds (the GET or an earlier push may
 * already have counted part of it; docs/decisions/013-commands-and-history-paths.md).
 */
export function replaceMinutes(
  points: readonly BotHistoryPoint[],
  pushed: readonly BotHistoryPoint[],
): BotHistoryPoint[] {
  const keyOf = (point: BotHistoryPoint) => `${point.minute}\u0000${point.account}`;
  const byKey = new Map(points.map((point) => [keyOf(point), point]));
  for (const point of pushed) byKey.set(keyOf(point), point);
  return [...byKey.values()];
}

/**
 * Watches one bot: its socket writes the state, the connection state, the event log and the
 * minutes not written yet (the owner's chart) to the cache.
 */
export function watchBot(queryClient: QueryClient, client: SocketClient, hwid: string | null | undefined) {
  if (!hwid) {
    client.connectToHwid(hwid, { onUpdate: () => undefined });
    return () => undefined;
  }
  const appendEvents = (events: LiveEvent[]) => {
    if (events.length === 0) return;
    queryClient.setQueryData<LiveEvent[]>(liveKeys.botEvents(hwid), (old = []) =>
      [...events.reverse(), ...old].slice(0, MAX_LIVE_EVENTS),
    );
  };
  const socket = client.connectToHwid(hwid, {
    onUpdate: (state) => {
      if (state.hwid !== hwid) return;
      const previous = queryClient.getQueryData<BotState | null>(liveKeys.bot(hwid));
      queryClient.setQueryData(liveKeys.bot(hwid), state);
      appendEvents(diffBotStates(previous, state));
    },
    onConnectionChange: (state) => {
      const previous = queryClient.getQueryData<LiveConnectionState>(liveKeys.botConnection(hwid));
      setConnection(queryClient, liveKeys.botConnection(hwid), state);
      if (previous === 'connected' && state === 'reconnecting') {
        appendEvents([
          {
            id: ++eventCounter,
            at: new Date().toISOString(),
            kind: 'connection',
            text: 'Connexion au serveur perdue',
          },
        ]);
      }
    },
  });
  if (!socket) return () => undefined;
  // A command's new state replaces the one listed (a new command goes first).
  socket.on(SOCKET_EVENTS.botCommandUpdate, (command) => {
    if (command.hwid === hwid) applyCommandUpdate(queryClient, command);
  });
  socket.on(SOCKET_EVENTS.botHistory, (update) => {
    if (update.hwid !== hwid) return;
    queryClient.setQueryData<BotHistoryPoint[]>(liveKeys.botMinutes(hwid), (old = []) =>
      replaceMinutes(old, update.points),
    );
  });
  return () => {
    client.disconnectHwid(hwid);
    setConnection(queryClient, liveKeys.botConnection(hwid), 'disconnected');
  };
}
