import {
  type AdminUser,
  PERMISSIONS,
  permissionLabel,
  USER_STATUS_LABELS,
  USER_STATUSES,
} from '@bot/contracts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import type { GridColDef } from '@mui/x-data-grid';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { AdminTable, formatDate, formatDateTime } from '../../../components/admin-table/index.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { roleOptionsQuery } from '../api/admin-users.ts';
import { STATUS_COLORS, statusOf } from '../components/user-status.ts';

const columns: GridColDef<AdminUser>[] = [
  { field: 'username', headerName: "Nom d'utilisateur", flex: 1, minWidth: 150 },
  { field: 'email', headerName: 'E-mail', flex: 1.2, minWidth: 180 },
  {
    field: 'activated',
    headerName: 'Statut',
    width: 190,
    renderCell: ({ row }) => {
      const status = statusOf(row);
      return <Chip size="small" color={STATUS_COLORS[status]} label={USER_STATUS_LABELS[status]} />;
    },
  },
  {
    field: 'roles',
    headerName: 'Rôles',
    flex: 1,
    minWidth: 140,
    sortable: false,
    renderCell: ({ row }) => (
      <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', alignItems: 'center', height: '100%' }}>
        {row.isAdministrator ? <Chip size="small" color="secondary" label="Administrateur" /> : null}
        {row.roles.map((role) => (
          <Chip key={role.id} size="small" variant="outlined" label={role.name} />
        ))}
      </Box>
    ),
  },
  {
    field: 'subscriptions',
    headerName: 'Abonnements',
    flex: 1,
    minWidth: 160,
    sortable: false,
    renderCell: ({ row }) =>
      row.subscriptions.length === 0
        ? '—'
        : row.subscriptions
            .map(
              (s) =>
                `${s.permission === 'can_useGathering' ? 'Récolte' : 'Trésor'} → ${s.expiresAt ? formatDate(s.expiresAt) : 'sans fin'}`,
            )
            .join(', '),
  },
  { field: 'hwid', headerName: 'HWID', width: 150, renderCell: ({ row }) => row.hwid ?? '—' },
  {
    field: 'isBotOnline',
    headerName: 'Bot',
    width: 110,
    sortable: false,
    renderCell: ({ row }) => (
      <Chip
        size="small"
        variant={row.isBotOnline ? 'filled' : 'outlined'}
        color={row.isBotOnline ? 'success' : 'default'}
        label={row.isBotOnline ? 'En ligne' : 'Hors ligne'}
      />
    ),
  },
  {
    field: 'createdAt',
    headerName: 'Créé le',
    width: 150,
    renderCell: ({ row }) => formatDateTime(row.createdAt),
  },
];

/** /admin/users: every account, searchable, filterable, exportable; a row opens the user. */
export default function UsersPage() {
  const navigate = useNavigate();
  const [status, setStatus] = useState('');
  const [roleId, setRoleId] = useState('');
  const [permission, setPermission] = useState('');
  const roles = useQuery(roleOptionsQuery);

  return (
    <>
      <PageHeader title="Utilisateurs" subtitle="Les comptes, leurs rôles, abonnements et bots." />
      <AdminTable<AdminUser>
        endpoint="/admin/users"
        label="Utilisateurs"
        columns={columns}
        secondaryColumns={['roles', 'hwid']}
        filters={{ status, roleId, permission }}
        initialSort="-createdAt"
        csvFilename="utilisateurs.csv"
        searchPlaceholder="Nom, e-mail, Discord, HWID…"
        syncUrl
        onRowClick={(row) => navigate(`/admin/users/${row.id}`)}
        // Narrow filters (they widen with a long choice): with the search and the table's two buttons
        // they fit one row at 1440 px (decision 107).
        toolbar={
          <>
            <TextField
              fullWidth={false}
              margin="none"
              select
              size="small"
              label="Statut"
              value={status}
              onChange={(event) => setStatus(event.target.value)}
              sx={{ minWidth: 130 }}
            >
              <MenuItem value="">Tous</MenuItem>
              {USER_STATUSES.map((value) => (
                <MenuItem key={value} value={value}>
                  {USER_STATUS_LABELS[value]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              fullWidth={false}
              margin="none"
              select
              size="small"
              label="Rôle"
              value={roleId}
              onChange={(event) => setRoleId(event.target.value)}
              sx={{ minWidth: 120 }}
            >
              <MenuItem value="">Tous</MenuItem>
              {(roles.data ?? []).map((role) => (
                <MenuItem key={role.id} value={role.id}>
                  {role.name}
                </MenuItem>
              ))}
            </TextField>
            <Tooltip title="Utilisateurs qui détiennent cette permission (rôle ou attribution directe)">
              <TextField
                fullWidth={false}
                margin="none"
                select
                size="small"
                label="Permission"
                value={permission}
                onChange={(event) => setPermission(event.target.value)}
                sx={{ minWidth: 150 }}
              >
                <MenuItem value="">Toutes</MenuItem>
                {PERMISSIONS.map((name) => (
                  <MenuItem key={name} value={name} title={name}>
                    {permissionLabel(name)}
                  </MenuItem>
                ))}
              </TextField>
            </Tooltip>
          </>
        }
      />
    </>
  );
}
