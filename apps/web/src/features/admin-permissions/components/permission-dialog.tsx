import { type Permission, type PermissionGrant, permissionLabel } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { formatDateTime, fromLocalInput, toLocalInput } from '../../../components/admin-table/index.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import {
  grantPermissionTo,
  permissionKeys,
  permissionQuery,
  removeGrant,
  updateGrantEnd,
} from '../api/permissions.ts';

const inThirtyDays = () => toLocalInput(new Date(Date.now() + 30 * 86_400_000).toISOString());

/** One permission: the roles holding it, its direct holders, and a form to grant it. */
export function PermissionDialog({ name, onClose }: { name: Permission | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const detail = useQuery({ ...permissionQuery(name ?? 'can_manageAudit'), enabled: name !== null });
  const [username, setUsername] = useState('');
  const [end, setEnd] = useState(inThirtyDays);
  const [hasNoEnd, setNoEnd] = useState(false);
  const [editing, setEditing] = useState<{ grant: PermissionGrant; end: string; hasNoEnd: boolean } | null>(
    null,
  );

  const refresh = () => queryClient.invalidateQueries({ queryKey: permissionKeys.all });
  const act = async (work: () => Promise<unknown>, success: string) => {
    try {
      await work();
      notifySuccess(success);
      void refresh();
      return true;
    } catch {
      return false;
    }
  };

  const grant = async () => {
    if (!name) return;
    if (
      await act(
        () =>
          grantPermissionTo(name, {
            username: username.trim(),
            expiresAt: hasNoEnd ? null : fromLocalInput(end),
          }),
        `« ${permissionLabel(name)} » accordée à ${username.trim()}.`,
      )
    )
      setUsername('');
  };

  return (
    <Dialog open={name !== null} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{name ? permissionLabel(name) : ''}</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary" sx={{ mb: 2, fontFamily: 'monospace' }}>
          {name}
        </Typography>
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          Rôles qui la donnent
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mb: 3 }}>
          {(detail.data?.roles ?? []).length === 0 ? (
            <Typography color="text.secondary">Aucun rôle.</Typography>
          ) : (
            detail.data?.roles.map((role) => <Chip key={role.id} size="small" label={role.name} />)
          )}
        </Box>

        <Typography variant="subtitle2">Accorder à un utilisateur</Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 3 }}>
          <TextField
            fullWidth={false}
            size="small"
            name="username"
            label="Nom d'utilisateur ou e-mail"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            sx={{ minWidth: 240 }}
          />
          <TextField
            fullWidth={false}
            size="small"
            type="datetime-local"
            name="expiresAt"
            label="Jusqu'au"
            value={end}
            disabled={hasNoEnd}
            onChange={(event) => setEnd(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <FormControlLabel
            control={<Checkbox checked={hasNoEnd} onChange={(event) => setNoEnd(event.target.checked)} />}
            label="Sans fin"
          />
          <Button variant="contained" disabled={!username.trim() || (!hasNoEnd && !end)} onClick={grant}>
            Accorder
          </Button>
        </Box>

        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          Détenteurs directs ({detail.data?.activeGrantCount ?? 0} actifs)
        </Typography>
        {(detail.data?.grants ?? []).length === 0 ? (
          <Typography color="text.secondary">Personne ne la détient directement.</Typography>
        ) : (
          <Box sx={{ overflowX: 'auto', maxHeight: 360 }}>
            <Table size="small" stickyHeader aria-label="Détenteurs directs">
              <TableHead>
                <TableRow>
                  <TableCell>Utilisateur</TableCell>
                  <TableCell>Origine</TableCell>
                  <TableCell>Fin</TableCell>
                  <TableCell>État</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {detail.data?.grants.map((row) => (
                  <TableRow key={row.id}>
                    <TableCell>
                      <RouterLink to={`/admin/users/${row.userId}`} style={{ color: 'inherit' }}>
                        {row.username}
                      </RouterLink>
                    </TableCell>
                    <TableCell>{row.source === 'order' ? 'Commande' : 'Staff'}</TableCell>
                    <TableCell>
                      {editing?.grant.id === row.id ? (
                        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                          <TextField
                            fullWidth={false}
                            margin="none"
                            size="small"
                            type="datetime-local"
                            value={editing.end}
                            disabled={editing.hasNoEnd}
                            onChange={(event) => setEditing({ ...editing, end: event.target.value })}
                            slotProps={{ htmlInput: { 'aria-label': 'Nouvelle date de fin' } }}
                          />
                          <FormControlLabel
                            control={
                              <Checkbox
                                size="small"
                                checked={editing.hasNoEnd}
                                onChange={(event) =>
                                  setEditing({ ...editing, hasNoEnd: event.target.checked })
                                }
                              />
                            }
                            label="Sans fin"
                          />
                        </Box>
                      ) : row.expiresAt ? (
                        formatDateTime(row.expiresAt)
                      ) : (
                        'Sans fin'
                      )}
                    </TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        color={row.isActive ? 'success' : 'default'}
                        label={row.isActive ? 'Active' : 'Expirée'}
                      />
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {editing?.grant.id === row.id ? (
                        <>
                          <Button
                            size="small"
                            variant="contained"
                            onClick={async () => {
                              if (
                                await act(
                                  () =>
                                    updateGrantEnd(
                                      row.id,
                                      editing.hasNoEnd ? null : fromLocalInput(editing.end),
                                    ),
                                  'Date de fin enregistrée.',
                                )
                              )
                                setEditing(null);
                            }}
                          >
                            Enregistrer
                          </Button>
                          <Button size="small" onClick={() => setEditing(null)}>
                            Annuler
                          </Button>
                        </>
                      ) : (
                        <>
                          <Button
                            size="small"
                            onClick={() =>
                              setEditing({
                                grant: row,
                                end: toLocalInput(row.expiresAt) || inThirtyDays(),
                                hasNoEnd: row.expiresAt === null,
                              })
                            }
                          >
                            Prolonger
                          </Button>
                          <Button
                            size="small"
                            color="error"
                            onClick={() => act(() => removeGrant(row.id), 'Permission retirée.')}
                          >
                            Retirer
                          </Button>
                        </>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fermer</Button>
      </DialogActions>
    </Dialog>
  );
}
