import {
  BOT_COMMAND_LABELS,
  BOT_COMMAND_STATE_LABELS,
  type BotCommand,
  type BotCommandState,
} from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { dateTimeSeconds, hourMinute } from '../../lib/dates.ts';
import { canCancel, WAITING_STATES } from './command-rules.ts';
import { detailOf, issuerOf, messageOf } from './command-text.ts';

const STATE_COLORS: Record<BotCommandState, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  sent: 'info',
  acknowledged: 'info',
  succeeded: 'success',
  failed: 'error',
  expired: 'warning',
  cancelled: 'default',
};
/** Commands listed at first, newest first; the others on demand. */
const COMMANDS_SHOWN = 5;

/**
 * A bot's latest remote commands (decision 208), each with the state the server holds; one still
 * waiting says when it expires, one not handed to the bot yet may be cancelled. The five newest
 * first, every listed one on demand.
 */
export function BotCommandList({
  commands,
  ownerView = false,
  onCancel,
  isCancelling,
  routeName,
}: {
  commands: BotCommand[];
  ownerView?: boolean;
  onCancel: (id: string) => void;
  isCancelling: boolean;
  /** A route's name (useRouteNames). */
  routeName: (id: string) => string;
}) {
  const [isAllShown, setAllShown] = useState(false);
  if (commands.length === 0) return <Typography color="text.secondary">Aucune commande envoyée.</Typography>;
  const shown = isAllShown ? commands : commands.slice(0, COMMANDS_SHOWN);
  return (
    <Box>
      <Stack spacing={1} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {shown.map((command) => {
          const message = messageOf(command, ownerView);
          return (
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
                {BOT_COMMAND_LABELS[command.kind]}
                {detailOf(command, routeName)} — par {issuerOf(command, ownerView)},{' '}
                {dateTimeSeconds.format(new Date(command.createdAt))}
                {message ? ` (${message})` : ''}
              </Typography>
              {WAITING_STATES.includes(command.state) ? (
                <Typography variant="caption" color="text.secondary" data-testid="bot-command-expiry">
                  expire à {hourMinute.format(new Date(command.expiresAt))}
                </Typography>
              ) : null}
              {canCancel(command, ownerView) ? (
                <Button
                  size="small"
                  color="warning"
                  disabled={isCancelling}
                  data-testid="bot-command-cancel"
                  onClick={() => onCancel(command.id)}
                >
                  Annuler
                </Button>
              ) : null}
            </Stack>
          );
        })}
      </Stack>
      {commands.length > COMMANDS_SHOWN ? (
        <Button
          size="small"
          sx={{ mt: 1 }}
          aria-expanded={isAllShown}
          data-testid="bot-command-show-all"
          onClick={() => setAllShown(!isAllShown)}
        >
          {isAllShown ? 'Voir moins' : `Voir les ${commands.length} commandes`}
        </Button>
      ) : null}
    </Box>
  );
}
