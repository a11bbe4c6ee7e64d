import type { OnlineBot } from '@bot/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { BotCommandControls } from '../../../components/bot-commands/index.ts';

/**
 * Staff's remote commands to one connected bot, from the users-online list (decision 208). The page
 * has no socket: the states are read again while a command waits.
 */
export function BotCommandsDialog({ bot, onClose }: { bot: OnlineBot | null; onClose: () => void }) {
  return (
    <Dialog open={bot !== null} onClose={onClose} fullWidth maxWidth="sm" data-testid="users-online-commands">
      <DialogTitle>Commandes à distance{bot ? ` · ${bot.ownerUsername}` : ''}</DialogTitle>
      <DialogContent>
        {bot ? (
          <BotCommandControls
            hwid={bot.hwid}
            scope="staff"
            accounts={bot.accountNames.map((name) => ({ name }))}
            live={false}
          />
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fermer</Button>
      </DialogActions>
    </Dialog>
  );
}
