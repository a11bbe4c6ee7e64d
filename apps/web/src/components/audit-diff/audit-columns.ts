import type { AuditEntry } from '@bot/contracts';
import type { GridColDef } from '@mui/x-data-grid';
import { summarizeDiff } from './audit-diff.ts';

/** The columns every list of audit entries ends with: what changed, and from which address. */
export const auditChangeColumns: GridColDef<AuditEntry>[] = [
  {
    field: 'details',
    headerName: 'Avant → après',
    flex: 1.5,
    minWidth: 200,
    sortable: false,
    renderCell: ({ row }) => summarizeDiff(row.before, row.after),
  },
  { field: 'ip', headerName: 'IP', width: 130, renderCell: ({ row }) => row.ip ?? '—' },
];
