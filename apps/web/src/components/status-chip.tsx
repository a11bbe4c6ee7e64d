import { BOT_STATUS_LABELS, type BotStatus } from '@bot/contracts';
import Chip from '@mui/material/Chip';
import { isShownPaused, PAUSED_LABEL } from '../lib/account-status.ts';

/** One colour per status, shared by the bot page and the admin map. */
/** Each at least 4.5:1 against the dark text drawn on it (WCAG AA). */
export const STATUS_COLORS: Record<BotStatus, string> = {
  idle: '#9e9e9e',
  moving: '#4fc3f7',
  gathering: '#66bb6a',
  treasure: '#ffca28',
  fighting: '#ef5350',
  banking: '#ba68c8',
  stopped: '#78909c',
  // White: "Erreur" must not be mistaken for "Combat" (red), also with a colour-vision deficiency
  // (the orange it replaced was 12-21 ΔE from that red in protan/deutan/tritan simulations;
  // status-chip.test.ts checks every pair), and stands out on any zone tint.
  error: '#ffffff',
};

/** A game account's status; `paused`: the bot is paused, a working account reads "En pause". */
export function StatusChip({ status, paused }: { status: BotStatus; paused?: boolean }) {
  if (isShownPaused(status, paused)) {
    return (
      <Chip
        size="small"
        variant="outlined"
        color="warning"
        label={PAUSED_LABEL}
        data-status="paused"
        sx={{ fontWeight: 600 }}
      />
    );
  }
  return (
    <Chip
      size="small"
      label={BOT_STATUS_LABELS[status]}
      data-status={status}
      sx={{ bgcolor: STATUS_COLORS[status], color: '#111', fontWeight: 600 }}
    />
  );
}
