import {
  BOT_COMMAND_LABELS,
  BOT_COMMAND_STATE_LABELS,
  type BotCommand,
  type BotCommandState,
} from '@bot/contracts';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { dateTimeSeconds, hourMinute } from '../../lib/dates.ts';
import { WAITING_STATES } from './use-bot-commands.ts';

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

/** What a command carries, in a few words (the account stopped; for staff, the route pushed). */
function detailOf(command: BotCommand, routeName?: (id: string) => string): string {
  const { payload } = command;
  if (command.kind === 'stopAccount' && typeof payload.account === 'string') return ` « ${payload.account} »`;
  if (command.kind === 'configure' && routeName && typeof payload.routeId === 'string')
    return ` (itinéraire ${routeName(payload.routeId)})`;
  return '';
}

/**
 * A bot's latest remote commands (decision 208), each with the state the server holds; one still
 * waiting says when it expires, one not handed to the bot yet may be cancelled.
 */
export function BotCommandList({
  commands,
  ownerView,
  onCancel,
  isCancelling,
  routeName,
}: {
  commands: BotCommand[];
  ownerView?: boolean;
  onCancel: (id: string) => void;
  isCancelling: boolean;
  /** Staff: a route's name (customers read no route list, nor ids). */
  routeName?: (id: string) => string;
}) {
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
            {BOT_COMMAND_LABELS[command.kind]}
            {detailOf(command, routeName)} — par{' '}
            {ownerView && command.issuer.type === 'owner' ? 'vous' : issuerOf(command)},{' '}
            {dateTimeSeconds.format(new Date(command.createdAt))}
            {command.message ? ` (${command.message})` : ''}
          </Typography>
          {WAITING_STATES.includes(command.state) ? (
            <Typography variant="caption" color="text.secondary" data-testid="bot-command-expiry">
              expire à {hourMinute.format(new Date(command.expiresAt))}
            </Typography>
          ) : null}
          {command.state === 'queued' ? (
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
      ))}
    </Stack>
  );
}
