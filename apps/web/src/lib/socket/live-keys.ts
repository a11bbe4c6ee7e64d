import type { BotCommand } from '@bot/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { LiveConnectionState } from './socket-client.ts';

/** Query keys the sockets write to: the pages read them with useQuery, never a second store. */
export const liveKeys = {
  /** The latest state of one watched bot (null until the bot reports). */
  bot: (hwid: string) => ['live', 'bot', hwid] as const,
  /** Connection state of the socket watching one bot. */
  botConnection: (hwid: string) => ['live', 'bot', hwid, 'connection'] as const,
  /** One bot's minutes not written yet, as its socket pushed them (`bot_history`), by minute and account. */
  botMinutes: (hwid: string) => ['live', 'bot', hwid, 'minutes'] as const,
  /** Events seen live for one bot (status changes, connections), newest first. */
  botEvents: (hwid: string) => ['live', 'bot', hwid, 'events'] as const,
  /** Remote commands to one bot (GET /me/bot/commands, then every `bot_command_update`), newest first. */
  botCommands: (hwid: string) => ['live', 'bot', hwid, 'commands'] as const,
  /** A bot's timeline ("Historique du bot"): the owner's, and staff's of one PC (`timelineKeys`). */
  myTimeline: ['me', 'bot', 'timeline'] as const,
  botTimeline: (hwid: string) => ['admin', 'bots', hwid, 'timeline'] as const,
  /** The whole fleet as the admin socket sees it. */
  fleet: ['live', 'fleet'] as const,
  fleetConnection: ['live', 'fleet', 'connection'] as const,
};

export function setConnection(queryClient: QueryClient, key: readonly unknown[], state: LiveConnectionState) {
  queryClient.setQueryData(key, state);
}

/**
 * A command's new state (`bot_command_update`) replaces the one listed for its bot; a new one goes
 * first. The bot's timeline lists commands with their state: it is read again.
 */
export function applyCommandUpdate(queryClient: QueryClient, command: BotCommand): void {
  refreshCommandTimelines(queryClient, command.hwid);
  queryClient.setQueryData<BotCommand[]>(liveKeys.botCommands(command.hwid), (old = []) =>
    old.some((listed) => listed.id === command.id)
      ? old.map((listed) => (listed.id === command.id ? command : listed))
      : [command, ...old],
  );
}

/** The timelines that list a bot's commands, after one of them changed state. */
export function refreshCommandTimelines(queryClient: QueryClient, hwid: string): void {
  void queryClient.invalidateQueries({ queryKey: liveKeys.myTimeline });
  void queryClient.invalidateQueries({ queryKey: liveKeys.botTimeline(hwid) });
}
