import type { OnlineBot } from '@bot/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useQuery } from '@tanstack/react-query';
import { BotCommandControls } from '../../../components/bot-commands/index.ts';
import { onlineBotQuery } from '../api/users-online.ts';

/**
 * Staff's remote commands to one connected bot, from the users-online list (decision 208). The page
 * has no socket: the states are read again while a command waits.
 */
export function BotCommandsDialog({ bot, onClose }: { bot: OnlineBot | null; onClose: () => void }) {
  return (
    <Dialog open={bot !== null} onClose={onClose} fullWidth maxWidth="sm" data-testid="users-online-commands">
      <DialogTitle>Commandes à distance{bot ? ` · ${bot.ownerUsername}` : ''}</DialogTitle>
      <DialogContent>{bot ? <DialogControls bot={bot} /> : null}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fermer</Button>
      </DialogActions>
    </Dialog>
  );
}

/** The controls on the bot's latest row: Pause or Reprendre as it is now, not as it was listed. */
function DialogControls({ bot }: { bot: OnlineBot }) {
  const latest = useQuery(onlineBotQuery(bot.hwid)).data ?? bot;
  return (
    <BotCommandControls
      hwid={bot.hwid}
      scope="staff"
      accounts={latest.accountNames.map((name) => ({ name }))}
      paused={latest.paused}
      live={false}
    />
  );
}
