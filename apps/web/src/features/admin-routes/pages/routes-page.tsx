import {
  ROUTE_KIND_LABELS,
  ROUTE_KINDS,
  ROUTE_STATUS_LABELS,
  ROUTE_STATUSES,
  type Route,
} from '@bot/contracts';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
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
import { deleteRoute, ROUTES_ENDPOINT, updateRoute } from '../api/routes.ts';
import { RouteEditor } from '../components/route-editor.tsx';

/** /admin/route: the routes bots follow; drafts stay private, published ones go to entitled bots. */
export default function RoutesPage() {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState('');
  const [status, setStatus] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminTableKey(ROUTES_ENDPOINT) });
  const dialogs = useRowDialogs<Route>({
    refresh,
    remove: async (route) => {
      await deleteRoute(route.id);
      notifySuccess('Itinéraire supprimé.');
    },
  });

  const togglePublished = async (route: Route) => {
    const next = route.status === 'published' ? 'draft' : 'published';
    try {
      await updateRoute(route.id, { status: next });
      notifySuccess(
        next === 'published' ? `« ${route.name} » est publié.` : `« ${route.name} » repasse en brouillon.`,
      );
      void refresh();
    } catch {
      // shown by the API client
    }
  };

  const columns: GridColDef<Route>[] = [
    { field: 'name', headerName: 'Nom', flex: 1, minWidth: 180 },
    { field: 'kind', headerName: 'Type', width: 160, renderCell: ({ row }) => ROUTE_KIND_LABELS[row.kind] },
    {
      field: 'status',
      headerName: 'Statut',
      width: 130,
      renderCell: ({ row }) => (
        <Chip
          size="small"
          color={row.status === 'published' ? 'success' : 'default'}
          label={ROUTE_STATUS_LABELS[row.status]}
        />
      ),
    },
    {
      field: 'steps',
      headerName: 'Étapes',
      width: 90,
      sortable: false,
      renderCell: ({ row }) => row.steps.length,
    },
    {
      field: 'updatedAt',
      headerName: 'Modifié le',
      width: 150,
      renderCell: ({ row }) => formatDateTime(row.updatedAt),
    },
    {
      field: 'updatedBy',
      headerName: 'Par',
      width: 130,
      sortable: false,
      renderCell: ({ row }) => row.updatedByUsername ?? '—',
    },
    {
      field: 'actions',
      headerName: 'Actions',
      width: 230,
      sortable: false,
      renderCell: ({ row }) => (
        <>
          <Button size="small" onClick={() => togglePublished(row)}>
            {row.status === 'published' ? 'Dépublier' : 'Publier'}
          </Button>
          <Tooltip title="Modifier">
            <IconButton aria-label={`Modifier ${row.name}`} onClick={() => dialogs.edit(row)}>
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title="Supprimer">
            <IconButton aria-label={`Supprimer ${row.name}`} onClick={() => dialogs.askDelete(row)}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </>
      ),
    },
  ];

  const small = { fullWidth: false, margin: 'none', size: 'small', select: true } as const;
  return (
    <>
      <PageHeader
        title="Itinéraires"
        subtitle="Les parcours que suivent les bots de récolte et de chasse au trésor."
      >
        <Button variant="contained" startIcon={<AddIcon />} onClick={dialogs.createNew}>
          Nouvel itinéraire
        </Button>
      </PageHeader>
      <AdminTable<Route>
        endpoint={ROUTES_ENDPOINT}
        empty={{
          text: 'Aucun itinéraire pour le moment : les bots suivent les itinéraires créés ici.',
          action: (
            <Button variant="contained" onClick={dialogs.createNew}>
              Créer un itinéraire
            </Button>
          ),
        }}
        label="Itinéraires"
        columns={columns}
        secondaryColumns={['updatedBy']}
        filters={{ kind, status }}
        initialSort="-updatedAt"
        csvFilename="itineraires.csv"
        syncUrl
        toolbar={
          <>
            <TextField
              {...small}
              label="Type"
              value={kind}
              onChange={(e) => setKind(e.target.value)}
              sx={{ minWidth: 170 }}
            >
              <MenuItem value="">Tous</MenuItem>
              {ROUTE_KINDS.map((value) => (
                <MenuItem key={value} value={value}>
                  {ROUTE_KIND_LABELS[value]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              {...small}
              label="Statut"
              value={status}
              onChange={(e) => setStatus(e.target.value)}
              sx={{ minWidth: 150 }}
            >
              <MenuItem value="">Tous</MenuItem>
              {ROUTE_STATUSES.map((value) => (
                <MenuItem key={value} value={value}>
                  {ROUTE_STATUS_LABELS[value]}
                </MenuItem>
              ))}
            </TextField>
          </>
        }
      />
      <ConfirmDialog
        {...dialogs.confirm}
        title={`Supprimer « ${dialogs.deleting?.name ?? ''} » ?`}
        confirmLabel="Supprimer"
      >
        Les bots ne le recevront plus. Cette action est définitive.
      </ConfirmDialog>
      <RouteEditor {...dialogs.editor} route={dialogs.editorRow} />
    </>
  );
}
