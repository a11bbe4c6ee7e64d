import { type AdminUserDetail, BOT_STATUS_LABELS } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime } from '../../../components/admin-table/index.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { isShownPaused, PAUSED_LABEL } from '../../../lib/account-status.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { resetUserHwid, userBotQuery } from '../api/admin-users.ts';
import { Section } from './section.tsx';

/** The user's PC (hwid, reset without cooldown), the bot's live state and its last 24 h. */
export function BotSection({
  user,
  onChanged,
}: {
  user: AdminUserDetail;
  onChanged: (user?: AdminUserDetail) => void;
}) {
  const bot = useQuery(userBotQuery(user.id));
  const [isBusy, setBusy] = useState(false);
  const [isConfirming, setConfirming] = useState(false);
  const state = bot.data?.state ?? null;
  const isPaused = state?.online === true && state.paused === true;
  const totals = (bot.data?.history ?? []).reduce(
    (sum, point) => ({
      gathered: sum.gathered + point.gathered,
      treasures: sum.treasures + point.treasures,
      kamas: sum.kamas + point.kamas,
      xp: sum.xp + point.xp,
    }),
    { gathered: 0, treasures: 0, kamas: 0, xp: 0 },
  );

  const reset = async () => {
    setConfirming(false);
    setBusy(true);
    try {
      const updated = await resetUserHwid(user.id);
      notifySuccess(
        'PC délié. Le bot de l’ancien PC est arrêté ; le prochain autre PC qui se connecte sera lié.',
      );
      onChanged(updated);
      void bot.refetch();
    } catch {
      // shown by the API client
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section
      title="Bot"
      action={
        <Chip
          data-testid="user-bot-presence"
          color={state?.online ? (isPaused ? 'warning' : 'success') : 'default'}
          variant={state?.online ? 'filled' : 'outlined'}
          label={state?.online ? (isPaused ? 'En pause' : 'En ligne') : 'Hors ligne'}
        />
      }
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 2 }}>
        <Typography>
          HWID : <strong>{user.hwid ?? 'aucun PC lié'}</strong>
        </Typography>
        <Button
          size="small"
          color="warning"
          variant="outlined"
          disabled={!user.hwid || isBusy}
          onClick={() => setConfirming(true)}
        >
          Réinitialiser le HWID
        </Button>
        <ConfirmDialog
          open={isConfirming}
          title="Réinitialiser le HWID ?"
          confirmLabel="Réinitialiser"
          isBusy={isBusy}
          onConfirm={reset}
          onCancel={() => setConfirming(false)}
        >
          Le PC de {user.username} sera délié sans délai d’attente : son bot est déconnecté et ne pourra se
          reconnecter que depuis le prochain PC qu’il lie. L’historique de l’ancien PC reste consultable. Elle
          ne compte pas dans les déliaisons mensuelles du client et reste possible quand il n’en a plus.
        </ConfirmDialog>
        {user.hwidResetAt ? (
          <Typography variant="body2" color="text.secondary">
            {user.hwidResetKind === 'pc_changed'
              ? 'Dernier changement de PC compté comme une déliaison'
              : 'Dernière déliaison par le client'}{' '}
            : {formatDateTime(user.hwidResetAt)}
          </Typography>
        ) : null}
      </Box>
      {state ? (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Version {state.version} · connecté le {formatDateTime(state.connectedAt)} · vu le{' '}
            {formatDateTime(state.lastSeenAt)}
          </Typography>
          <Box sx={{ overflowX: 'auto', mb: 2 }}>
            <Table size="small" aria-label="Comptes de jeu du bot">
              <TableHead>
                <TableRow>
                  <TableCell>Compte</TableCell>
                  <TableCell>Personnage</TableCell>
                  <TableCell>Niveau</TableCell>
                  <TableCell>État</TableCell>
                  <TableCell>Position</TableCell>
                  <TableCell>Message</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {state.accounts.map((account) => (
                  <TableRow key={account.name}>
                    <TableCell>{account.name}</TableCell>
                    <TableCell>{account.character}</TableCell>
                    <TableCell>{account.level}</TableCell>
                    <TableCell>
                      {isShownPaused(account.status, isPaused)
                        ? PAUSED_LABEL
                        : BOT_STATUS_LABELS[account.status]}
                    </TableCell>
                    <TableCell>
                      [{account.position.x}, {account.position.y}]
                    </TableCell>
                    <TableCell>{account.message ?? '—'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        </>
      ) : null}
      <Typography variant="subtitle2">Dernières 24 heures</Typography>
      <Typography color="text.secondary">
        {totals.gathered} ressources récoltées · {totals.treasures} trésors ·{' '}
        {totals.kamas.toLocaleString('fr-FR')} kamas · {totals.xp.toLocaleString('fr-FR')} XP (
        {bot.data?.history.length ?? 0} minutes d'activité)
      </Typography>
    </Section>
  );
}
