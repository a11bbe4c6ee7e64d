import {
  BOT_COMMAND_LABELS,
  BOT_COMMAND_STATE_LABELS,
  type BotCommand,
  type BotCommandInput,
  type BotCommandState,
  botCommandAnswer,
  botCommandListAnswer,
} from '@bot/contracts';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { dateTimeSeconds } from '../lib/dates.ts';
import { applyCommandUpdate, liveKeys } from '../lib/socket/index.ts';

/**
 * A bot's commands at `path` (`/me/bot/commands` or `/admin/bots/:hwid/commands`), kept in the query
 * the sockets update (`bot_command_update`), and sending one.
 */
export function useBotCommands(hwid: string, path: string) {
  const queryClient = useQueryClient();
  const key = liveKeys.botCommands(hwid);
  const commands = useQuery({
    queryKey: key,
    queryFn: async () =>
      (
        await api.get(path, {
          schema: botCommandListAnswer,
          fallback: 'Impossible de charger les commandes.',
        })
      ).data,
  });
  const send = useMutation({
    mutationFn: async (command: BotCommandInput) =>
      (await api.post(path, command, { schema: botCommandAnswer })).data,
    // Unless the socket already told a newer state of it.
    onSuccess: (command) => {
      const listed = queryClient.getQueryData<BotCommand[]>(key)?.some((known) => known.id === command.id);
      if (!listed) applyCommandUpdate(queryClient, command);
    },
  });
  return { commands: commands.data ?? [], send };
}

/** The one-click commands, as their buttons read. */
export const BOT_COMMAND_BUTTONS: { kind: 'pause' | 'resume' | 'restart'; label: string }[] = [
  { kind: 'pause', label: 'Pause' },
  { kind: 'resume', label: 'Reprendre' },
  { kind: 'restart', label: 'Redémarrer' },
];
/** Commands listed under the buttons, newest first. */
export const COMMANDS_SHOWN = 5;

const STATE_COLORS: Record<BotCommandState, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  sent: 'info',
  acknowledged: 'info',
  succeeded: 'success',
  failed: 'error',
  expired: 'warning',
  cancelled: 'default',
};

/** Who sent a command, as the reader is told: staff by name to staff, "l’équipe" to a customer. */
function issuerOf(command: BotCommand): string {
  if (command.issuer.type === 'staff') return command.issuer.username ?? 'l’équipe';
  return command.issuer.username ?? 'le propriétaire';
}

/** A bot's latest remote commands (decision 208), each with the state the server holds. */
export function BotCommandList({ commands, ownerView }: { commands: BotCommand[]; ownerView?: boolean }) {
  if (commands.length === 0) return <Typography color="text.secondary">Aucune commande envoyée.</Typography>;
  return (
    <Stack spacing={1} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {commands.map((command) => (
        <Stack
          key={command.id}
          component="li"
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', flexWrap: 'wrap' }}
          data-testid="bot-command"
          data-kind={command.kind}
          data-state={command.state}
        >
          <Chip
            size="small"
            color={STATE_COLORS[command.state]}
            label={BOT_COMMAND_STATE_LABELS[command.state]}
          />
          <Typography variant="body2">
            {BOT_COMMAND_LABELS[command.kind]} — par{' '}
            {ownerView && command.issuer.type === 'owner' ? 'vous' : issuerOf(command)},{' '}
            {dateTimeSeconds.format(new Date(command.createdAt))}
            {command.message ? ` (${command.message})` : ''}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}
