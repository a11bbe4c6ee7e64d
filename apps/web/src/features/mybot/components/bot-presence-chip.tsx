import type { BotState } from '@bot/contracts';
import Chip from '@mui/material/Chip';
import type { LiveConnectionState } from '../../../lib/socket/index.ts';

const NO_FADE = { transition: 'none' } as const;

/**
 * The bot's presence in the page header: online, paused or offline as the live connection tells;
 * while that connection is down, the last state may be stale, so "État du bot inconnu". A change
 * shows at once (no colour fade: half-way its text would be hard to read).
 */
export function BotPresenceChip({
  state,
  connection,
}: {
  state: BotState | null;
  connection: LiveConnectionState;
}) {
  if (connection !== 'connected') {
    return (
      <Chip
        data-testid="mybot-online"
        data-online="unknown"
        data-paused="unknown"
        variant="outlined"
        label="État du bot inconnu"
        sx={NO_FADE}
      />
    );
  }
  const isOnline = state?.online === true;
  const isPaused = isOnline && state?.paused === true;
  return (
    <Chip
      data-testid="mybot-online"
      data-online={isOnline ? 'true' : 'false'}
      data-paused={isPaused ? 'true' : 'false'}
      color={isOnline ? (isPaused ? 'warning' : 'success') : 'default'}
      label={isOnline ? (isPaused ? 'Bot en pause' : 'Bot en ligne') : 'Bot hors ligne'}
      sx={NO_FADE}
    />
  );
}
