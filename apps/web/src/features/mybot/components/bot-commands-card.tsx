import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import {
  BOT_COMMAND_BUTTONS,
  BotCommandList,
  COMMANDS_SHOWN,
  useBotCommands,
} from '../../../components/bot-command-list.tsx';
import { SectionCard } from '../../../components/section-card.tsx';

/**
 * Pause, resume, restart the bot from anywhere (decision 208), and each command's true state: the
 * list comes from GET /me/bot/commands, then the socket writes every change into the same query.
 */
export function BotCommandsCard({ hwid }: { hwid: string }) {
  const { commands, send } = useBotCommands(hwid, '/me/bot/commands');
  const latest = commands.slice(0, COMMANDS_SHOWN);
  return (
    <SectionCard
      title="Commandes à distance"
      subheader="Le bot confirme chaque commande : l’état affiché est celui qu’il a reçu."
    >
      <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap' }}>
        {BOT_COMMAND_BUTTONS.map(({ kind, label }) => (
          <Button
            key={kind}
            variant="outlined"
            data-testid={`bot-command-${kind}`}
            disabled={send.isPending}
            onClick={() => send.mutate({ kind })}
          >
            {label}
          </Button>
        ))}
      </Stack>
      <BotCommandList commands={latest} ownerView />
    </SectionCard>
  );
}
