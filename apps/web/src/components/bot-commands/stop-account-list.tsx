import type { BotStatus } from '@bot/contracts';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../confirm-dialog.tsx';
import { canStopAccount } from './command-rules.ts';

/** A game account of the bot, with its last reported status when known. */
export interface CommandAccount {
  name: string;
  status?: BotStatus;
}

/**
 * "Arrêter ce compte" for each game account of the bot, after a confirmation; not offered for an
 * account already stopped.
 */
export function StopAccountList({
  accounts,
  isSending,
  onStop,
}: {
  accounts: readonly CommandAccount[];
  isSending: boolean;
  onStop: (account: string) => void;
}) {
  const [confirming, setConfirming] = useState<string | null>(null);
  if (accounts.length === 0) return null;
  return (
    <Stack spacing={0.5} sx={{ mb: 1.5 }}>
      {accounts.map((account) => (
        <Stack key={account.name} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" sx={{ flexGrow: 1 }}>
            {account.name}
          </Typography>
          <Button
            size="small"
            color="warning"
            data-testid="bot-command-stop-account"
            data-account={account.name}
            disabled={isSending || !canStopAccount(account.status)}
            onClick={() => setConfirming(account.name)}
          >
            Arrêter ce compte
          </Button>
        </Stack>
      ))}
      <ConfirmDialog
        open={confirming !== null}
        title={`Arrêter le compte ${confirming ?? ''} ?`}
        confirmLabel="Arrêter le compte"
        isBusy={isSending}
        onConfirm={() => {
          if (confirming) onStop(confirming);
          setConfirming(null);
        }}
        onCancel={() => setConfirming(null)}
      >
        Le bot arrête ce compte de jeu dès qu’il reçoit la commande.
      </ConfirmDialog>
    </Stack>
  );
}
