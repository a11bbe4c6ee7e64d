import { type AdminUserDetail, banInput, USER_STATUS_LABELS } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../../../components/admin-table/index.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { activateUser, banUser, resendActivation, setUserDiscord, unbanUser } from '../api/admin-users.ts';
import { Section } from './section.tsx';
import { STATUS_COLORS, statusOf } from './user-status.ts';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box sx={{ minWidth: 180 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography component="div" sx={{ wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </Box>
  );
}

/** Profile, activation, ban and Discord id of one user. */
export function ProfileSection({
  user,
  onChanged,
}: {
  user: AdminUserDetail;
  onChanged: (user?: AdminUserDetail) => void;
}) {
  const status = statusOf(user);
  const [isBusy, setBusy] = useState(false);
  const [isBanOpen, setBanOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const [discord, setDiscord] = useState(user.discordId ?? '');
  useEffect(() => setDiscord(user.discordId ?? ''), [user.discordId]);

  const run = async (work: () => Promise<AdminUserDetail | unknown>, success: string) => {
    setBusy(true);
    try {
      const result = await work();
      notifySuccess(success);
      onChanged(
        result && typeof result === 'object' && 'username' in result
          ? (result as AdminUserDetail)
          : undefined,
      );
      return true;
    } catch {
      return false; // the API client showed the message
    } finally {
      setBusy(false);
    }
  };

  const confirmBan = async () => {
    const parsed = banInput.safeParse({ reason });
    if (!parsed.success) {
      setReasonError(parsed.error.issues[0]?.message);
      return;
    }
    if (
      await run(
        () => banUser(user.id, parsed.data.reason),
        `${user.username} est banni. Ses sessions sont terminées.`,
      )
    ) {
      setBanOpen(false);
      setReason('');
    }
  };

  return (
    <Section
      title="Profil"
      action={
        <Chip color={STATUS_COLORS[status]} label={USER_STATUS_LABELS[status]} data-testid="user-status" />
      }
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, mb: 2 }}>
        <Field label="Nom d'utilisateur">{user.username}</Field>
        <Field label="E-mail">{user.email}</Field>
        <Field label="Inscrit le">{formatDateTime(user.createdAt)}</Field>
        <Field label="Parrain">{user.referral ?? '—'}</Field>
        <Field label="Administrateur">{user.isAdministrator ? 'Oui' : 'Non'}</Field>
      </Box>
      {user.bannedAt ? (
        <Typography color="error" sx={{ mb: 2 }}>
          Banni le {formatDateTime(user.bannedAt)} : {user.banReason}
        </Typography>
      ) : null}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 3 }}>
        {!user.activated ? (
          <>
            <Button
              variant="contained"
              disabled={isBusy}
              onClick={() => run(() => activateUser(user.id), 'Compte activé.')}
            >
              Activer le compte
            </Button>
            <Button
              disabled={isBusy || Boolean(user.bannedAt)}
              onClick={() => run(() => resendActivation(user.id), "E-mail d'activation renvoyé.")}
            >
              Renvoyer l'e-mail d'activation
            </Button>
          </>
        ) : null}
        {user.bannedAt ? (
          <Button
            color="warning"
            variant="outlined"
            disabled={isBusy}
            onClick={() => run(() => unbanUser(user.id), 'Bannissement levé.')}
          >
            Lever le bannissement
          </Button>
        ) : (
          <Button
            color="error"
            variant="outlined"
            disabled={isBusy || user.isAdministrator}
            onClick={() => setBanOpen(true)}
          >
            Bannir
          </Button>
        )}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          fullWidth={false}
          margin="none"
          size="small"
          name="discordId"
          label="Identifiant Discord"
          value={discord}
          onChange={(event) => setDiscord(event.target.value)}
          sx={{ minWidth: 260 }}
        />
        <Button
          disabled={isBusy || discord.trim() === (user.discordId ?? '')}
          onClick={() =>
            run(
              () => setUserDiscord(user.id, discord.trim() || null),
              discord.trim() ? 'Identifiant Discord enregistré.' : 'Identifiant Discord retiré.',
            )
          }
        >
          Enregistrer
        </Button>
      </Box>

      <Dialog open={isBanOpen} onClose={() => setBanOpen(false)} fullWidth maxWidth="sm">
        <DialogTitle>Bannir {user.username}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Ses sessions se terminent à l'instant et son bot est déconnecté. La raison est montrée à
            l'utilisateur lorsqu'il tente de se connecter.
          </DialogContentText>
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={2}
            name="reason"
            label="Raison du bannissement"
            value={reason}
            error={Boolean(reasonError)}
            helperText={reasonError}
            onChange={(event) => {
              setReason(event.target.value);
              setReasonError(undefined);
            }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setBanOpen(false)}>Annuler</Button>
          <Button color="error" variant="contained" disabled={isBusy} onClick={confirmBan}>
            Bannir
          </Button>
        </DialogActions>
      </Dialog>
    </Section>
  );
}
