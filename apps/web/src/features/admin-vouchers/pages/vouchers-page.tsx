import {
  formatPrice,
  VOUCHER_KIND_LABELS,
  VOUCHER_KINDS,
  type Voucher,
  type VoucherInput,
} from '@bot/contracts';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AdminTable, adminTableKey } from '../../../components/admin-table/index.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { dateShort as dateFormat } from '../../../lib/dates.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import {
  createVoucher,
  deleteVoucher,
  fetchPackagesOnSale,
  updateVoucher,
  VOUCHERS_ENDPOINT,
  voucherKeys,
} from '../api/vouchers.ts';
import { RedemptionsDialog } from '../components/redemptions-dialog.tsx';
import { VoucherDialog } from '../components/voucher-dialog.tsx';

function discountLabelOf(voucher: Voucher): string {
  if (voucher.kind === 'percent') return `−${voucher.percentOff} %`;
  if (voucher.kind === 'fixed') return `−${formatPrice(voucher.amountOffCents ?? 0)}`;
  return 'Offerte';
}

function periodOf(voucher: Voucher): string {
  if (!voucher.startsAt && !voucher.endsAt) return 'Toujours';
  const from = voucher.startsAt ? dateFormat.format(new Date(voucher.startsAt)) : '…';
  const to = voucher.endsAt ? dateFormat.format(new Date(voucher.endsAt)) : '…';
  return `${from} → ${to}`;
}

/** /admin/vouchers: create codes, follow their use, deactivate or delete them. */
export default function VouchersPage() {
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Voucher | null>(null);
  const [showing, setShowing] = useState<Voucher | null>(null);
  const [kind, setKind] = useState('');
  const [active, setActive] = useState('');
  const packages = useQuery({
    queryKey: voucherKeys.packagesOnSale,
    queryFn: fetchPackagesOnSale,
    enabled: creating || editing !== null,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminTableKey(VOUCHERS_ENDPOINT) });

  const create = useMutation({
    mutationFn: (input: VoucherInput) => createVoucher(input),
    onSuccess: async (voucher) => {
      notifySuccess(`Bon ${voucher.code} créé.`);
      setCreating(false);
      await refresh();
    },
  });
  const edit = useMutation({
    mutationFn: ({ id, input }: { id: string; input: VoucherInput }) =>
      updateVoucher(id, {
        percentOff: input.percentOff,
        amountOffCents: input.amountOffCents,
        packageId: input.packageId,
        maxRedemptions: input.maxRedemptions,
        perCustomerLimit: input.perCustomerLimit,
        startsAt: input.startsAt,
        endsAt: input.endsAt,
        active: input.active,
        note: input.note,
      }),
    onSuccess: async (voucher) => {
      notifySuccess(`Bon ${voucher.code} modifié.`);
      setEditing(null);
      await refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: (voucher: Voucher) => updateVoucher(voucher.id, { active: !voucher.active }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (voucher: Voucher) => deleteVoucher(voucher.id),
    onSuccess: refresh,
  });

  const columns: GridColDef<Voucher>[] = [
    {
      field: 'code',
      headerName: 'Code',
      flex: 1,
      minWidth: 220,
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%' }}>
          <code>{row.code}</code>
          <IconButton
            size="small"
            aria-label={`Copier ${row.code}`}
            onClick={() =>
              void navigator.clipboard?.writeText(row.code).then(() => notifySuccess('Code copié.'))
            }
          >
            <ContentCopyIcon fontSize="inherit" />
          </IconButton>
        </Stack>
      ),
    },
    {
      field: 'kind',
      headerName: 'Type',
      width: 170,
      valueFormatter: (value: Voucher['kind']) => VOUCHER_KIND_LABELS[value],
    },
    {
      field: 'value',
      headerName: 'Valeur',
      width: 100,
      sortable: false,
      valueGetter: (_v, row) => discountLabelOf(row),
    },
    {
      field: 'packageName',
      headerName: 'Offre',
      width: 150,
      sortable: false,
      valueFormatter: (value: string | null) => value ?? 'Toutes',
    },
    {
      field: 'redemptionsCount',
      headerName: 'Utilisations',
      width: 120,
      valueGetter: (value: number, row) =>
        `${value}${row.maxRedemptions !== null ? ` / ${row.maxRedemptions}` : ''}`,
    },
    { field: 'endsAt', headerName: 'Validité', width: 180, valueGetter: (_v, row) => periodOf(row) },
    {
      field: 'active',
      headerName: 'Statut',
      width: 100,
      sortable: false,
      renderCell: ({ row }) =>
        row.active ? (
          <Chip size="small" color="success" label="Actif" />
        ) : (
          <Chip size="small" label="Inactif" />
        ),
    },
    {
      field: 'actions',
      headerName: 'Actions',
      width: 380,
      sortable: false,
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%' }}>
          <Button size="small" onClick={() => setShowing(row)}>
            Utilisations
          </Button>
          <Button size="small" onClick={() => setEditing(row)}>
            Modifier
          </Button>
          <Button size="small" onClick={() => toggle.mutate(row)}>
            {row.active ? 'Désactiver' : 'Activer'}
          </Button>
          {row.redemptionsCount === 0 ? (
            <Button size="small" color="error" onClick={() => remove.mutate(row)}>
              Supprimer
            </Button>
          ) : null}
        </Stack>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Bons" subtitle="Les bons de réduction." />
      <AdminTable<Voucher>
        endpoint={VOUCHERS_ENDPOINT}
        empty={{
          text: 'Aucun bon pour le moment : créez-en un pour offrir une réduction ou une offre.',
          action: (
            <Button variant="contained" onClick={() => setCreating(true)}>
              Créer un bon
            </Button>
          ),
        }}
        columns={columns}
        secondaryColumns={['packageName', 'redemptionsCount']}
        filters={{ kind, active }}
        initialSort="-createdAt"
        label="Bons"
        searchPlaceholder="Rechercher un code"
        toolbar={
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <TextField
              select
              size="small"
              label="Type"
              value={kind}
              onChange={(e) => setKind(e.target.value)}
              sx={{ minWidth: 140 }}
            >
              <MenuItem value="">Tous</MenuItem>
              {VOUCHER_KINDS.map((value) => (
                <MenuItem key={value} value={value}>
                  {VOUCHER_KIND_LABELS[value]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label="Statut"
              value={active}
              onChange={(e) => setActive(e.target.value)}
              sx={{ minWidth: 120 }}
            >
              <MenuItem value="">Tous</MenuItem>
              <MenuItem value="true">Actifs</MenuItem>
              <MenuItem value="false">Inactifs</MenuItem>
            </TextField>
            <Button variant="contained" onClick={() => setCreating(true)}>
              Nouveau bon
            </Button>
          </Stack>
        }
      />
      {creating ? (
        <VoucherDialog
          packages={packages.data ?? []}
          isSaving={create.isPending}
          onClose={() => setCreating(false)}
          onSubmit={(input) => create.mutate(input)}
        />
      ) : null}
      {editing ? (
        <VoucherDialog
          initial={editing}
          packages={packages.data ?? []}
          isSaving={edit.isPending}
          onClose={() => setEditing(null)}
          onSubmit={(input) => edit.mutate({ id: editing.id, input })}
        />
      ) : null}
      {showing ? <RedemptionsDialog voucher={showing} onClose={() => setShowing(null)} /> : null}
    </>
  );
}
