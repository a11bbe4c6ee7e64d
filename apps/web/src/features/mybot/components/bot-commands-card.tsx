import {
  BOT_COMMAND_LABELS,
  BOT_COMMAND_STATE_LABELS,
  type BotCommand,
  type BotCommandState,
  botCommandAnswer,
  botCommandListAnswer,
} from '@bot/contracts';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SectionCard } from '../../../components/section-card.tsx';
import { api } from '../../../lib/api.ts';
import { dateTimeSeconds } from '../../../lib/dates.ts';
import { liveKeys } from '../../../lib/socket/index.ts';

type OwnerCommand = 'pause' | 'resume' | 'restart';
const BUTTONS: { kind: OwnerCommand; label: string }[] = [
  { kind: 'pause', label: 'Pause' },
  { kind: 'resume', label: 'Reprendre' },
  { kind: 'restart', label: 'Redémarrer' },
];
const SHOWN = 5;

const STATE_COLORS: Record<BotCommandState, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  sent: 'info',
  acknowledged: 'info',
  succeeded: 'success',
  failed: 'error',
  expired: 'warning',
  cancelled: 'default',
};

function issuerOf(command: BotCommand): string {
  return command.issuer.type === 'staff' ? 'l’équipe' : 'vous';
}

/**
 * Pause, resume, restart the bot from anywhere (decision 208), and each command's true state: the
 * list comes from GET /me/bot/commands, then the socket writes every change into the same query.
 */
export function BotCommandsCard({ hwid }: { hwid: string }) {
  const queryClient = useQueryClient();
  const key = liveKeys.botCommands(hwid);
  const commands = useQuery({
    queryKey: key,
    queryFn: async () =>
      (
        await api.get('/me/bot/commands', {
          schema: botCommandListAnswer,
          fallback: 'Impossible de charger les commandes.',
        })
      ).data,
  });
  const send = useMutation({
    mutationFn: async (kind: OwnerCommand) =>
      (await api.post('/me/bot/commands', { kind }, { schema: botCommandAnswer })).data,
    onSuccess: (command) =>
      queryClient.setQueryData<BotCommand[]>(key, (old = []) =>
        old.some((listed) => listed.id === command.id) ? old : [command, ...old],
      ),
  });
  const latest = (commands.data ?? []).slice(0, SHOWN);
  return (
    <SectionCard
      title="Commandes à distance"
      subheader="Le bot confirme chaque commande : l’état affiché est celui qu’il a reçu."
    >
      <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap' }}>
        {BUTTONS.map(({ kind, label }) => (
          <Button
            key={kind}
            variant="outlined"
            data-testid={`bot-command-${kind}`}
            disabled={send.isPending}
            onClick={() => send.mutate(kind)}
          >
            {label}
          </Button>
        ))}
      </Stack>
      {latest.length === 0 ? (
        <Typography color="text.secondary">Aucune commande envoyée.</Typography>
      ) : (
        <Stack spacing={1} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {latest.map((command) => (
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
                {BOT_COMMAND_LABELS[command.kind]} — par {issuerOf(command)},{' '}
                {dateTimeSeconds.format(new Date(command.createdAt))}
                {command.message ? ` (${command.message})` : ''}
              </Typography>
            </Stack>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
