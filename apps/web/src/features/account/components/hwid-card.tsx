import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { dateTimeLong as dateFormat } from '../../../lib/dates.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { usePublicSettings } from '../../settings/index.ts';
import { accountKeys, hwidResetsQuery, resetHwid } from '../api/account.ts';
import {
  countedChangeNote,
  remainingAfterUnbindText,
  remainingResetsText,
  unbindBlockedUntil,
} from './hwid-resets.ts';

export function HwidCard({ onChanged }: { onChanged: () => void }) {
  const hwid = useAuthStore((state) => state.user?.hwid ?? null);
  const setUser = useAuthStore((state) => state.setUser);
  const [isWorking, setIsWorking] = useState(false);
  const [isConfirming, setIsConfirming] = useState(false);
  const cooldownHours = usePublicSettings((state) => state.settings?.hwidResetCooldownHours ?? 24);
  const queryClient = useQueryClient();
  const resets = useQuery(hwidResetsQuery).data;
  // The cooldown (after an unbind or a counted PC change) or no unbind left: no button until then.
  const blockedUntil = resets ? unbindBlockedUntil(resets) : null;

  const onReset = async () => {
    setIsConfirming(false);
    setIsWorking(true);
    try {
      const answer = await resetHwid();
      setUser(answer.data);
      queryClient.setQueryData(accountKeys.hwidResets, answer.resets);
      notifySuccess('Votre PC a été délié. Le bot se liera au prochain PC qui se connecte.');
      onChanged();
    } catch {
      // The API client has shown the message (for example the cooldown).
    } finally {
      setIsWorking(false);
    }
  };

  return (
    <SectionCard title="PC lié (HWID)" subheader="Le bot ne fonctionne que sur le PC lié à votre compte.">
      {/* Monospace for the identifier only, not for the sentence saying there is none. */}
      <Typography
        sx={{ fontFamily: hwid ? 'monospace' : undefined, wordBreak: 'break-all' }}
        data-testid="hwid"
      >
        {hwid ?? 'Aucun PC lié pour le moment.'}
      </Typography>
      {resets ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="hwid-resets-left">
          {remainingResetsText(resets.remaining, resets.windowDays)} {countedChangeNote()}
        </Typography>
      ) : null}
      {blockedUntil ? (
        <Alert severity="info" sx={{ mt: 2 }} data-testid="hwid-next-reset">
          Prochaine déliaison possible le {dateFormat.format(blockedUntil)}
          {hwid ? ' : le bouton « Délier mon PC » sera disponible à partir de cette date.' : '.'}
        </Alert>
      ) : null}
      <Button
        sx={{ mt: 2 }}
        variant="outlined"
        color="warning"
        disabled={!hwid || isWorking || !resets || blockedUntil !== null}
        onClick={() => setIsConfirming(true)}
      >
        Délier mon PC
      </Button>
      <ConfirmDialog
        open={isConfirming}
        title="Délier ce PC ?"
        confirmLabel="Délier mon PC"
        isBusy={isWorking}
        onConfirm={onReset}
        onCancel={() => setIsConfirming(false)}
      >
        {cooldownHours > 0
          ? `Le bot de ce PC est arrêté et ne pourra pas relier ce PC à votre compte avant ${cooldownHours} h. Le prochain autre PC qui se connecte avec votre clé sera lié. Vous ne pourrez pas délier à nouveau avant ${cooldownHours} h.`
          : 'Le bot de ce PC est arrêté. Le prochain PC qui se connecte avec votre clé sera lié.'}
        {resets ? ` ${remainingAfterUnbindText(resets.remaining, resets.windowDays)}` : null}
      </ConfirmDialog>
    </SectionCard>
  );
}
