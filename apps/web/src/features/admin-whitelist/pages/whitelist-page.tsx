import {
  type AdminWhitelistAddInput,
  type AdminWhitelistEntry,
  adminWhitelistAddInput,
} from '@bot/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { AdminTable, adminTableKey } from '../../../components/admin-table/index.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { dateTimeShort as dateTime } from '../../../lib/dates.ts';
import { textFieldProps } from '../../../lib/form-field.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';
import { addEntryForCustomer, removeEntry, WHITELIST_ENDPOINT } from '../api/whitelist.ts';

/** /admin/whitelist: every whitelisted game account; staff add one for a customer or remove one. */
export default function AdminWhitelistPage() {
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminTableKey(WHITELIST_ENDPOINT) });
  const [removing, setRemoving] = useState<AdminWhitelistEntry | null>(null);
  const remove = useMutation({
    mutationFn: (entry: AdminWhitelistEntry) => removeEntry(entry.id),
    onSuccess: async () => {
      notifySuccess('Compte retiré de la liste blanche.');
      await refresh();
    },
    onSettled: () => setRemoving(null),
  });

  const columns: GridColDef<AdminWhitelistEntry>[] = [
    {
      field: 'name',
      headerName: 'Compte de jeu',
      flex: 1,
      minWidth: 160,
      // Blank for an account that outranks the reader (docs/decisions/404-no-privilege-escalation.md).
      valueGetter: (_v, row) => row.name || 'Masqué (compte de rang supérieur)',
    },
    {
      field: 'username',
      headerName: 'Client',
      flex: 1,
      minWidth: 140,
      valueGetter: (_v, row) => row.user.username,
    },
    {
      field: 'createdBy',
      headerName: 'Ajouté par',
      width: 150,
      sortable: false,
      valueGetter: (_v, row) =>
        row.createdBy ? (row.createdBy.id === row.user.id ? 'le client' : row.createdBy.username) : '—',
    },
    {
      field: 'createdAt',
      headerName: 'Ajouté le',
      width: 160,
      valueFormatter: (value: string) => dateTime.format(new Date(value)),
    },
    {
      field: 'actions',
      headerName: 'Actions',
      width: 120,
      sortable: false,
      renderCell: ({ row }) => (
        <Button size="small" color="error" disabled={remove.isPending} onClick={() => setRemoving(row)}>
          Retirer
        </Button>
      ),
    },
  ];

  return (
    <>
      <ConfirmDialog
        open={removing !== null}
        title={`Retirer ${removing?.name || 'ce compte de jeu'} ?`}
        confirmLabel="Retirer"
        isBusy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      >
        Le bot de {removing?.user.username ?? 'ce client'} ne pourra plus piloter ce compte de jeu, dès
        maintenant. Le client retrouve la place dans sa liste blanche.
      </ConfirmDialog>
      <PageHeader title="Liste blanche" subtitle="Les comptes de jeu autorisés de tous les clients." />
      <AdminTable<AdminWhitelistEntry>
        endpoint={WHITELIST_ENDPOINT}
        empty={{
          text: 'Aucun compte de jeu en liste blanche : les clients les ajoutent depuis leur espace.',
        }}
        columns={columns}
        initialSort="-createdAt"
        label="Liste blanche"
        searchPlaceholder="Compte de jeu ou client"
        toolbar={
          <Button variant="contained" onClick={() => setAdding(true)}>
            Ajouter pour un client
          </Button>
        }
      />
      {adding ? (
        <AddEntryDialog
          onClose={() => setAdding(false)}
          onAdded={async () => {
            setAdding(false);
            await refresh();
          }}
        />
      ) : null}
    </>
  );
}

/** Staff add a game account to a customer's whitelist (the server checks the customer's slots). */
function AddEntryDialog({ onClose, onAdded }: { onClose: () => void; onAdded: () => Promise<void> }) {
  const form = useForm<AdminWhitelistAddInput>({
    resolver: schemaResolver(adminWhitelistAddInput),
    defaultValues: { username: '', name: '' },
  });
  const { isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (input) => {
    try {
      const entry = await addEntryForCustomer(input);
      notifySuccess(`« ${entry.name} » ajouté pour ${entry.user.username}.`);
      await onAdded();
    } catch {
      // shown by the API client
    }
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Ajouter un compte pour un client</DialogTitle>
      <DialogContent>
        <Stack component="form" id="whitelist-form" spacing={2} sx={{ pt: 1 }} onSubmit={submit} noValidate>
          <TextField {...textFieldProps(form, 'username')} label="Nom d’utilisateur du client" required />
          <TextField {...textFieldProps(form, 'name')} label="Compte de jeu" required />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Annuler</Button>
        <Button type="submit" form="whitelist-form" variant="contained" disabled={isSubmitting}>
          Ajouter
        </Button>
      </DialogActions>
    </Dialog>
  );
}
