import {
  AUDIT_ACTION_GROUP_LABELS,
  AUDIT_TARGET_TYPE_LABELS,
  type AuditEntry,
  auditActionLabel,
} from '@bot/contracts';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AdminTable, formatDateTime, fromLocalInput } from '../../../components/admin-table/index.ts';
import { auditChangeColumns, auditTargetText } from '../../../components/audit-diff/index.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { viewerTimeZone } from '../../../lib/dates.ts';
import { auditActionsQuery } from '../api/audit.ts';
import { AuditEntryDialog, targetTypeLabel } from '../components/audit-entry-dialog.tsx';

/** "Utilisateurs (toutes)" for the filter's `user.` prefix. */
const actionGroupLabel = (prefix: string) => {
  const group = prefix.slice(0, -1);
  return `${AUDIT_ACTION_GROUP_LABELS[group] ?? group} (toutes)`;
};

const columns: GridColDef<AuditEntry>[] = [
  { field: 'at', headerName: 'Date', width: 150, renderCell: ({ row }) => formatDateTime(row.at) },
  {
    field: 'actor',
    headerName: 'Auteur',
    width: 150,
    renderCell: ({ row }) => row.actorUsername ?? 'Système',
  },
  {
    field: 'action',
    headerName: 'Action',
    flex: 1,
    minWidth: 200,
    renderCell: ({ row }) => auditActionLabel(row.action),
  },
  {
    field: 'target',
    headerName: 'Cible',
    width: 170,
    renderCell: ({ row }) => auditTargetText(row) ?? targetTypeLabel(row.targetType),
  },
  ...auditChangeColumns,
];

/** /admin/audit: every staff action and security event; filters, before/after, CSV export. */
export default function AuditPage() {
  const actions = useQuery(auditActionsQuery);
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [target, setTarget] = useState('');
  const [targetType, setTargetType] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  // The entry stays while the dialog fades out, so it never shows empty (nor loses its name).
  const [entry, setEntry] = useState<AuditEntry | null>(null);
  const [isOpen, setOpen] = useState(false);

  const prefixes = [...new Set((actions.data ?? []).map((name) => `${name.split('.')[0]}.`))];
  const small = { fullWidth: false, margin: 'none', size: 'small' } as const;

  return (
    <>
      <PageHeader
        title="Audit"
        subtitle={`Qui a fait quoi, sur quoi, quand et d'où. Heures de votre fuseau (${viewerTimeZone}).`}
      />
      <AdminTable<AuditEntry>
        endpoint="/admin/audit"
        label="Journal d'audit"
        columns={columns}
        secondaryColumns={['ip']}
        filters={{
          actor: actor.trim(),
          action,
          target: target.trim(),
          targetType,
          from: fromLocalInput(from),
          to: fromLocalInput(to),
        }}
        initialSort="-at"
        csvFilename="audit.csv"
        searchPlaceholder="Rechercher (action, auteur, cible, IP)…"
        syncUrl
        onRowClick={(row) => {
          setEntry(row);
          setOpen(true);
        }}
        toolbar={
          <>
            <TextField
              {...small}
              name="actor"
              label="Auteur"
              value={actor}
              onChange={(e) => setActor(e.target.value)}
            />
            <TextField
              {...small}
              select
              label="Action"
              value={action}
              onChange={(e) => setAction(e.target.value)}
              sx={{ minWidth: 220 }}
            >
              <MenuItem value="">Toutes</MenuItem>
              {prefixes.map((prefix) => (
                <MenuItem key={prefix} value={prefix}>
                  {actionGroupLabel(prefix)}
                </MenuItem>
              ))}
              {(actions.data ?? []).map((name) => (
                <MenuItem key={name} value={name}>
                  {auditActionLabel(name)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              {...small}
              select
              label="Type de cible"
              value={targetType}
              onChange={(e) => setTargetType(e.target.value)}
              sx={{ minWidth: 160 }}
            >
              <MenuItem value="">Tous</MenuItem>
              {Object.entries(AUDIT_TARGET_TYPE_LABELS).map(([type, label]) => (
                <MenuItem key={type} value={type}>
                  {label}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              {...small}
              name="target"
              label="Cible"
              value={target}
              onChange={(e) => setTarget(e.target.value)}
            />
            <TextField
              {...small}
              type="datetime-local"
              label="Du"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              {...small}
              type="datetime-local"
              label="Au"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </>
        }
      />
      <AuditEntryDialog entry={entry} open={isOpen} onClose={() => setOpen(false)} />
    </>
  );
}
