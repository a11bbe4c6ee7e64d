import {
  type AdminUserDetail,
  PERMISSIONS,
  type Permission,
  type PermissionGrant,
  permissionLabel,
} from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { formatDateTime } from '../../../components/admin-table/index.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { createUserGrant, deleteUserGrant, updateUserGrant } from '../api/admin-users.ts';
import { GrantEndDialog } from './grant-end-dialog.tsx';
import { Section } from './section.tsx';

const SOURCE_LABELS = { manual: 'Staff', order: 'Commande' };

/** Direct grants with end dates: grant, extend, remove. */
export function GrantsSection({ user, onChanged }: { user: AdminUserDetail; onChanged: () => void }) {
  const [permission, setPermission] = useState<Permission>('can_useGathering');
  const [editing, setEditing] = useState<PermissionGrant | 'new' | null>(null);

  const act = async (work: () => Promise<unknown>, success: string) => {
    try {
      await work();
      notifySuccess(success);
      setEditing(null);
      onChanged();
    } catch {
      // shown by the API client
    }
  };

  return (
    <Section title="Permissions accordées" subheader="Attributions directes, avec ou sans date de fin.">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <TextField
          fullWidth={false}
          margin="none"
          select
          size="small"
          label="Permission"
          name="permission"
          value={permission}
          onChange={(event) => setPermission(event.target.value as Permission)}
          sx={{ minWidth: 240 }}
        >
          {PERMISSIONS.map((name) => (
            <MenuItem key={name} value={name} title={name}>
              {permissionLabel(name)}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="contained" onClick={() => setEditing('new')}>
          Accorder…
        </Button>
      </Box>
      {user.grants.length === 0 ? (
        <Typography color="text.secondary">Aucune permission accordée directement.</Typography>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Permissions accordées">
            <TableHead>
              <TableRow>
                <TableCell>Permission</TableCell>
                <TableCell>Origine</TableCell>
                <TableCell>Fin</TableCell>
                <TableCell>État</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {user.grants.map((grant) => (
                <TableRow key={grant.id}>
                  <TableCell title={grant.permission}>{permissionLabel(grant.permission)}</TableCell>
                  <TableCell>{SOURCE_LABELS[grant.source]}</TableCell>
                  <TableCell>{grant.expiresAt ? formatDateTime(grant.expiresAt) : 'Sans fin'}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={grant.isActive ? 'success' : 'default'}
                      label={grant.isActive ? 'Active' : 'Expirée'}
                    />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Button size="small" onClick={() => setEditing(grant)}>
                      Modifier la fin
                    </Button>
                    <Button
                      size="small"
                      color="error"
                      onClick={() => act(() => deleteUserGrant(user.id, grant.id), 'Permission retirée.')}
                    >
                      Retirer
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      <GrantEndDialog
        open={editing !== null}
        title={
          editing === 'new'
            ? `Accorder « ${permissionLabel(permission)} »`
            : `Fin de « ${permissionLabel(editing?.permission ?? '')} »`
        }
        initial={
          editing === 'new'
            ? new Date(Date.now() + 30 * 86_400_000).toISOString()
            : (editing?.expiresAt ?? null)
        }
        onClose={() => setEditing(null)}
        onSave={(expiresAt) =>
          editing === 'new'
            ? act(() => createUserGrant(user.id, { permission, expiresAt }), 'Permission accordée.')
            : editing
              ? act(() => updateUserGrant(user.id, editing.id, expiresAt), 'Date de fin enregistrée.')
              : Promise.resolve()
        }
      />
    </Section>
  );
}
