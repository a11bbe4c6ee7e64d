import { formatPrice, type Package, permissionLabel } from '@bot/contracts';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import EditIcon from '@mui/icons-material/Edit';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import type { GridColDef } from '@mui/x-data-grid';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AdminTable, adminTableKey } from '../../../components/admin-table/index.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import {
  createPackage,
  fetchAllPackages,
  PACKAGES_ENDPOINT,
  reorderPackages,
  updatePackage,
} from '../api/packages.ts';
import { PackageDialog, type PackageFormValues } from '../components/package-dialog.tsx';

function statusOf(pkg: Package) {
  if (pkg.retiredAt) return <Chip size="small" label="Retirée" />;
  return pkg.active ? (
    <Chip size="small" color="success" label="En vente" />
  ) : (
    <Chip size="small" color="warning" label="Inactive" />
  );
}

/** /admin/package: create, edit, reorder, activate or retire packages. */
export default function PackagesPage() {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Package | 'new' | null>(null);
  const [status, setStatus] = useState('all');
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminTableKey(PACKAGES_ENDPOINT) });

  const save = useMutation({
    mutationFn: (values: PackageFormValues) =>
      editing && editing !== 'new' ? updatePackage(editing.id, values) : createPackage(values),
    onSuccess: async () => {
      notifySuccess('Offre enregistrée.');
      setEditing(null);
      await refresh();
    },
  });
  const change = useMutation({
    mutationFn: ({ id, input }: { id: string; input: { active?: boolean; retired?: boolean } }) =>
      updatePackage(id, input),
    onSuccess: refresh,
    onSettled: () => setRetiring(null),
  });
  const [retiring, setRetiring] = useState<Package | null>(null);
  const move = useMutation({
    mutationFn: async ({ id, by }: { id: string; by: -1 | 1 }) => {
      const ids = (await fetchAllPackages()).map((pkg) => pkg.id);
      const from = ids.indexOf(id);
      const to = from + by;
      if (from < 0 || to < 0 || to >= ids.length) return;
      [ids[from], ids[to]] = [ids[to] as string, ids[from] as string];
      await reorderPackages(ids);
    },
    onSuccess: refresh,
  });

  const columns: GridColDef<Package>[] = [
    {
      field: 'sortOrder',
      headerName: 'Ordre',
      width: 110,
      renderCell: ({ row }) => (
        <Stack direction="row">
          <IconButton
            size="small"
            aria-label={`Monter ${row.name}`}
            onClick={() => move.mutate({ id: row.id, by: -1 })}
          >
            <ArrowUpwardIcon fontSize="small" />
          </IconButton>
          <IconButton
            size="small"
            aria-label={`Descendre ${row.name}`}
            onClick={() => move.mutate({ id: row.id, by: 1 })}
          >
            <ArrowDownwardIcon fontSize="small" />
          </IconButton>
        </Stack>
      ),
    },
    { field: 'name', headerName: 'Nom', flex: 1, minWidth: 160 },
    {
      field: 'priceCents',
      headerName: 'Prix',
      width: 110,
      valueFormatter: (value: number, row) => formatPrice(value, row.currency),
    },
    { field: 'durationDays', headerName: 'Durée (j)', width: 100 },
    {
      field: 'grants',
      headerName: 'Permissions',
      flex: 1,
      minWidth: 200,
      sortable: false,
      valueGetter: (value: Package['grants']) => value.map(permissionLabel).join(', '),
    },
    { field: 'whitelistSlots', headerName: 'Places', width: 90, sortable: false },
    {
      field: 'active',
      headerName: 'Statut',
      width: 120,
      sortable: false,
      renderCell: ({ row }) => statusOf(row),
    },
    {
      field: 'actions',
      headerName: 'Actions',
      width: 230,
      sortable: false,
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%' }}>
          <Tooltip title="Modifier">
            <IconButton size="small" aria-label={`Modifier ${row.name}`} onClick={() => setEditing(row)}>
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          {row.retiredAt ? (
            <Button size="small" onClick={() => change.mutate({ id: row.id, input: { retired: false } })}>
              Remettre
            </Button>
          ) : (
            <>
              <Button
                size="small"
                onClick={() => change.mutate({ id: row.id, input: { active: !row.active } })}
              >
                {row.active ? 'Désactiver' : 'Activer'}
              </Button>
              <Button size="small" color="error" onClick={() => setRetiring(row)}>
                Retirer
              </Button>
            </>
          )}
        </Stack>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Offres" subtitle="Les offres vendues dans la boutique." />
      <ConfirmDialog
        open={retiring !== null}
        title={`Retirer l’offre « ${retiring?.name ?? ''} » ?`}
        confirmLabel="Retirer l’offre"
        isBusy={change.isPending}
        onConfirm={() => retiring && change.mutate({ id: retiring.id, input: { retired: true } })}
        onCancel={() => setRetiring(null)}
      >
        Elle disparaît de la boutique : plus personne ne peut l’acheter. Les clients qui l’ont déjà gardent
        leurs droits jusqu’à la fin de leur période. Vous pourrez la remettre en vente.
      </ConfirmDialog>
      <AdminTable<Package>
        endpoint={PACKAGES_ENDPOINT}
        empty={{
          text: 'Aucune offre pour le moment : la boutique des clients est vide.',
          action: (
            <Button variant="contained" onClick={() => setEditing('new')}>
              Créer une offre
            </Button>
          ),
        }}
        columns={columns}
        filters={{ status }}
        initialSort="sortOrder"
        label="Offres"
        searchPlaceholder="Rechercher une offre"
        toolbar={
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <TextField
              select
              size="small"
              label="Statut"
              value={status}
              onChange={(e) => setStatus(e.target.value)}
              sx={{ minWidth: 140 }}
            >
              <MenuItem value="all">Toutes</MenuItem>
              <MenuItem value="active">En vente</MenuItem>
              <MenuItem value="inactive">Inactives</MenuItem>
              <MenuItem value="retired">Retirées</MenuItem>
            </TextField>
            <Button variant="contained" onClick={() => setEditing('new')}>
              Nouvelle offre
            </Button>
          </Stack>
        }
      />
      {editing ? (
        <PackageDialog
          initial={editing === 'new' ? undefined : editing}
          isSaving={save.isPending}
          onClose={() => setEditing(null)}
          onSubmit={(values) => save.mutate(values)}
        />
      ) : null}
    </>
  );
}
