import {
  type BotCommand,
  type BotCommandInput,
  botCommandAnswer,
  botCommandListAnswer,
} from '@bot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { isApiError } from '../../lib/api-error.ts';
import { applyCommandUpdate, liveKeys, refreshCommandTimelines } from '../../lib/socket/index.ts';
import { refreshInterval } from './command-rules.ts';

const stateOf = (commands: BotCommand[] | undefined) =>
  (commands ?? []).map((command) => `${command.id}:${command.state}`).join(',');

/**
 * A bot's commands at `path` (`/me/bot/commands` or `/admin/bots/:hwid/commands`), kept in the query
 * the sockets update (`bot_command_update`); sending and cancelling one. `live`: a socket of the
 * page updates the query; otherwise it is read again every 500 ms while a command waits, and right
 * after sending or cancelling one (decision 208).
 */
export function useBotCommands(hwid: string, path: string, { live }: { live: boolean }) {
  const queryClient = useQueryClient();
  const key = liveKeys.botCommands(hwid);
  const commands = useQuery({
    queryKey: key,
    queryFn: async () => {
      const before = queryClient.getQueryData<BotCommand[]>(key);
      const { data } = await api.get(path, {
        schema: botCommandListAnswer,
        fallback: 'Impossible de charger les commandes.',
      });
      // A state read here and not told by a socket: the timeline lists it too.
      if (before !== undefined && stateOf(before) !== stateOf(data))
        refreshCommandTimelines(queryClient, hwid);
      return data;
    },
    refetchInterval: (query) => refreshInterval(live, query.state.data),
  });
  // Unless the socket already told a newer state of it.
  const told = (command: BotCommand) => {
    const listed = queryClient.getQueryData<BotCommand[]>(key)?.find((known) => known.id === command.id);
    if (!listed || listed.updatedAt < command.updatedAt) applyCommandUpdate(queryClient, command);
  };
  // Without a socket, the list is read again at once: what the others did meanwhile, or why a
  // cancellation was refused (the bot had the command already).
  const reread = () => {
    if (!live) void queryClient.invalidateQueries({ queryKey: key });
  };
  const send = useMutation({
    mutationFn: async (command: BotCommandInput) =>
      (await api.post(path, command, { schema: botCommandAnswer })).data,
    onSuccess: told,
    onSettled: reread,
  });
  const cancel = useMutation({
    mutationFn: async (id: string) =>
      (await api.post(`${path}/${encodeURIComponent(id)}/cancel`, undefined, { schema: botCommandAnswer }))
        .data,
    onSuccess: told,
    onSettled: reread,
  });
  // Staff outranked by the bot's owner may not read its commands (docs/decisions/404): the server's
  // French refusal replaces the controls.
  const refusal = isApiError(commands.error) && commands.error.status === 403 ? commands.error.message : null;
  return { commands: commands.data ?? [], send, cancel, refusal };
}
