import { countOf, PERMISSIONS, permissionLabel, type Role } from '@bot/contracts';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import type { GridColDef } from '@mui/x-data-grid';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  AdminTable,
  adminTableKey,
  formatDateTime,
  useRowDialogs,
} from '../../../components/admin-table/index.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { deleteRole } from '../api/roles.ts';
import { RoleDialog } from '../components/role-dialog.tsx';

/** Chips shown in a row before the rest is summed up: French labels are long, a row has two lines. */
const SHOWN_CHIPS = 3;

/** A role's permissions in its row: every label when few, "Toutes les permissions", or the first and a count. */
function PermissionChips({ permissions }: { permissions: Role['permissions'] }) {
  if (permissions.length === 0) return '—';
  if (permissions.length === PERMISSIONS.length) return <Chip size="small" label="Toutes les permissions" />;
  const shown = permissions.length > SHOWN_CHIPS ? permissions.slice(0, SHOWN_CHIPS - 1) : permissions;
  const rest = permissions.slice(shown.length);
  return (
    <>
      {shown.map((p) => (
        <Chip key={p} size="small" label={permissionLabel(p)} title={p} />
      ))}
      {rest.length > 0 ? (
        <Chip
          size="small"
          variant="outlined"
          label={`+ ${countOf(rest.length, 'autre', 'autres')}`}
          title={rest.map(permissionLabel).join(', ')}
        />
      ) : null}
    </>
  );
}

/** /admin/role: roles, their permissions and members. */
export default function RolesPage() {
  const queryClient = useQueryClient();
  const [permission, setPermission] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminTableKey('/admin/roles') });
  const dialogs = useRowDialogs<Role>({
    refresh,
    remove: async (role) => {
      await deleteRole(role.id);
      notifySuccess(`Rôle « ${role.name} » supprimé.`);
    },
  });

  const columns: GridColDef<Role>[] = [
    { field: 'name', headerName: 'Nom', flex: 1, minWidth: 150 },
    { field: 'description', headerName: 'Description', flex: 1.5, minWidth: 180, sortable: false },
    {
      field: 'permissions',
      headerName: 'Permissions',
      flex: 2,
      minWidth: 240,
      sortable: false,
      renderCell: ({ row }) => (
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 0.5,
            alignItems: 'center',
            height: '100%',
            overflow: 'hidden',
          }}
        >
          <PermissionChips permissions={row.permissions} />
        </Box>
      ),
    },
    { field: 'memberCount', headerName: 'Membres', width: 110, type: 'number' },
    {
      field: 'createdAt',
      headerName: 'Créé le',
      width: 150,
      renderCell: ({ row }) => formatDateTime(row.createdAt),
    },
    {
      field: 'actions',
      headerName: 'Actions',
      width: 110,
      sortable: false,
      renderCell: ({ row }) => (
        <>
          <Tooltip title="Modifier">
            <IconButton aria-label={`Modifier ${row.name}`} onClick={() => dialogs.edit(row)}>
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip
            title={row.memberCount > 0 ? 'Retirez le rôle à ses membres avant de le supprimer' : 'Supprimer'}
          >
            <span>
              <IconButton aria-label={`Supprimer ${row.name}`} onClick={() => dialogs.askDelete(row)}>
                <DeleteIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        </>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Rôles" subtitle="Des ensembles de permissions à donner aux membres du staff.">
        <Button variant="contained" startIcon={<AddIcon />} onClick={dialogs.createNew}>
          Nouveau rôle
        </Button>
      </PageHeader>
      <AdminTable<Role>
        endpoint="/admin/roles"
        empty={{
          text: 'Aucun rôle pour le moment : un rôle donne un ensemble de permissions à des membres du staff.',
          action: (
            <Button variant="contained" onClick={dialogs.createNew}>
              Créer un rôle
            </Button>
          ),
        }}
        label="Rôles"
        columns={columns}
        secondaryColumns={['description', 'createdAt']}
        filters={{ permission }}
        initialSort="name"
        csvFilename="roles.csv"
        syncUrl
        toolbar={
          <TextField
            select
            fullWidth={false}
            margin="none"
            size="small"
            label="Permission"
            value={permission}
            onChange={(event) => setPermission(event.target.value)}
            sx={{ minWidth: 200 }}
          >
            <MenuItem value="">Toutes</MenuItem>
            {PERMISSIONS.map((name) => (
              <MenuItem key={name} value={name} title={name}>
                {permissionLabel(name)}
              </MenuItem>
            ))}
          </TextField>
        }
      />
      <RoleDialog {...dialogs.editor} role={dialogs.editorRow} />
      <ConfirmDialog
        {...dialogs.confirm}
        title={`Supprimer le rôle « ${dialogs.deleting?.name ?? ''} » ?`}
        confirmLabel="Supprimer"
      >
        {dialogs.deleting && dialogs.deleting.memberCount > 0
          ? `Ce rôle est attribué à ${countOf(dialogs.deleting.memberCount, 'utilisateur', 'utilisateurs')} : la suppression sera refusée tant qu'il leur est attribué.`
          : 'Cette action est définitive.'}
      </ConfirmDialog>
    </>
  );
}
