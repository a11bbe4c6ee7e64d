import { type AuditEntry, auditActionLabel } from '@bot/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { GridColDef } from '@mui/x-data-grid';
import { useState } from 'react';
import { AdminTable, formatDateTime } from '../../../components/admin-table/index.ts';
import { AuditDiffView, auditChangeColumns } from '../../../components/audit-diff/index.ts';
import { Section } from './section.tsx';

const columns: GridColDef<AuditEntry>[] = [
  { field: 'at', headerName: 'Date', width: 150, renderCell: ({ row }) => formatDateTime(row.at) },
  {
    field: 'action',
    headerName: 'Action',
    flex: 1,
    minWidth: 180,
    renderCell: ({ row }) => auditActionLabel(row.action),
  },
  { field: 'actor', headerName: 'Par', width: 140, renderCell: ({ row }) => row.actorUsername ?? '—' },
  ...auditChangeColumns,
];

/** What happened to and by the user, newest first; a row shows its before/after. */
export function TimelineSection({ userId }: { userId: string }) {
  const [open, setOpen] = useState<AuditEntry | null>(null);
  return (
    <Section title="Historique" subheader="Actions du staff sur ce compte et événements de sécurité.">
      <AdminTable<AuditEntry>
        endpoint={`/admin/users/${userId}/audit`}
        label="Historique de l'utilisateur"
        columns={columns}
        hideSearch
        initialPageSize={10}
        onRowClick={setOpen}
      />
      <Dialog open={open !== null} onClose={() => setOpen(null)} fullWidth maxWidth="md">
        <DialogTitle>
          {open ? `${auditActionLabel(open.action)} — ${formatDateTime(open.at)}` : ''}
        </DialogTitle>
        <DialogContent>
          {open ? <AuditDiffView before={open.before} after={open.after} /> : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(null)}>Fermer</Button>
        </DialogActions>
      </Dialog>
    </Section>
  );
}
