import type { AdminUserDetail } from '@bot/contracts';
import { countOf, describeUserAgent } from '@bot/contracts';
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
import { notifySuccess } from '../../../lib/notify.ts';
import {
  resetUserTwoFactor,
  revokeAllUserSessions,
  revokeUserSession,
  userSessionsQuery,
} from '../api/admin-users.ts';
import { Section } from './section.tsx';

/** Web sessions of the user, newest first; revoke one or all; reset a lost two-factor authenticator. */
export function SessionsSection({
  user,
  onChanged,
}: {
  user: AdminUserDetail;
  onChanged: (user?: AdminUserDetail) => void;
}) {
  const userId = user.id;
  const sessions = useQuery(userSessionsQuery(userId));
  const active = (sessions.data ?? []).filter((session) => session.isActive);
  // What is about to be revoked, waiting for confirmation: one session or all of them.
  const [pending, setPending] = useState<{ sessionId: string } | 'all' | null>(null);
  const [isConfirmingReset, setConfirmingReset] = useState(false);
  const resetSecondFactor = async () => {
    setConfirmingReset(false);
    try {
      const updated = await resetUserTwoFactor(userId);
      notifySuccess('Double authentification réinitialisée. L’utilisateur a été déconnecté.');
      void sessions.refetch();
      onChanged(updated);
    } catch {
      // shown by the API client
    }
  };
  const revoke = async (work: () => Promise<{ revoked: number }>) => {
    setPending(null);
    try {
      const { revoked } = await work();
      notifySuccess(revoked > 1 ? `${revoked} sessions révoquées.` : 'Session révoquée.');
      void sessions.refetch();
      onChanged();
    } catch {
      // shown by the API client
    }
  };
  return (
    <Section
      title="Sessions"
      subheader={countOf(active.length, 'active', 'actives')}
      action={
        <Button color="error" disabled={active.length === 0} onClick={() => setPending('all')}>
          Tout révoquer
        </Button>
      }
    >
      <ConfirmDialog
        open={pending !== null}
        title={pending === 'all' ? 'Révoquer toutes les sessions ?' : 'Révoquer cette session ?'}
        confirmLabel="Révoquer"
        onConfirm={() =>
          revoke(() =>
            pending === 'all' || pending === null
              ? revokeAllUserSessions(userId)
              : revokeUserSession(userId, pending.sessionId),
          )
        }
        onCancel={() => setPending(null)}
      >
        {pending === 'all'
          ? 'L’utilisateur est déconnecté de tous ses navigateurs, tout de suite ; il devra se reconnecter.'
          : 'Ce navigateur est déconnecté tout de suite ; l’utilisateur devra s’y reconnecter.'}
      </ConfirmDialog>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2">Double authentification :</Typography>
        <Chip
          size="small"
          color={user.twoFactorEnabled ? 'success' : 'default'}
          variant={user.twoFactorEnabled ? 'filled' : 'outlined'}
          label={user.twoFactorEnabled ? 'Activée' : 'Désactivée'}
        />
        {user.twoFactorEnabled ? (
          <Button size="small" color="error" onClick={() => setConfirmingReset(true)}>
            Réinitialiser
          </Button>
        ) : null}
      </Box>
      <ConfirmDialog
        open={isConfirmingReset}
        title="Réinitialiser la double authentification ?"
        confirmLabel="Réinitialiser"
        onConfirm={() => void resetSecondFactor()}
        onCancel={() => setConfirmingReset(false)}
      >
        À faire seulement pour le titulaire du compte, identité vérifiée, qui a perdu son téléphone et ses
        codes de secours. Son application et ses codes cessent de fonctionner, il est déconnecté partout et
        pourra se reconnecter avec son seul mot de passe.
      </ConfirmDialog>
      {(sessions.data ?? []).length === 0 ? (
        <Typography color="text.secondary">Aucune session.</Typography>
      ) : (
        <Box sx={{ overflowX: 'auto', maxHeight: 360 }}>
          <Table size="small" stickyHeader aria-label="Sessions">
            <TableHead>
              <TableRow>
                <TableCell>Ouverte le</TableCell>
                <TableCell>Vue le</TableCell>
                <TableCell>IP</TableCell>
                <TableCell>Appareil</TableCell>
                <TableCell>État</TableCell>
                <TableCell>Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(sessions.data ?? []).map((session) => (
                <TableRow key={session.id}>
                  <TableCell>{formatDateTime(session.createdAt)}</TableCell>
                  <TableCell>{formatDateTime(session.lastSeenAt)}</TableCell>
                  <TableCell>{session.ip ?? '—'}</TableCell>
                  {/* The device in words; the raw user agent on hover for who needs it. */}
                  <TableCell title={session.userAgent ?? undefined} data-testid="session-device">
                    {describeUserAgent(session.userAgent)}
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={session.isActive ? 'success' : 'default'}
                      label={session.isActive ? 'Active' : session.revokedAt ? 'Révoquée' : 'Expirée'}
                    />
                  </TableCell>
                  <TableCell align="right">
                    {session.isActive ? (
                      <Button
                        size="small"
                        color="error"
                        onClick={() => setPending({ sessionId: session.id })}
                      >
                        Révoquer
                      </Button>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Section>
  );
}
