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
import { revokeAllUserSessions, revokeUserSession, userSessionsQuery } from '../api/admin-users.ts';
import { Section } from './section.tsx';

/** Web sessions of the user, newest first; revoke one or all. */
export function SessionsSection({ userId, onChanged }: { userId: string; onChanged: () => void }) {
  const sessions = useQuery(userSessionsQuery(userId));
  const active = (sessions.data ?? []).filter((session) => session.isActive);
  // What is about to be revoked, waiting for confirmation: one session or all of them.
  const [pending, setPending] = useState<{ sessionId: string } | 'all' | null>(null);
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
      subheader={`${active.length} active(s)`}
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
                <TableCell>Navigateur</TableCell>
                <TableCell>État</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {(sessions.data ?? []).map((session) => (
                <TableRow key={session.id}>
                  <TableCell>{formatDateTime(session.createdAt)}</TableCell>
                  <TableCell>{formatDateTime(session.lastSeenAt)}</TableCell>
                  <TableCell>{session.ip ?? '—'}</TableCell>
                  <TableCell
                    sx={{ maxWidth: 260, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                  >
                    {session.userAgent ?? '—'}
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
