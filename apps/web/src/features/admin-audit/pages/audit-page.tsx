import {
  AUDIT_ACTION_GROUP_LABELS,
  AUDIT_TARGET_TYPE_LABELS,
  type AuditEntry,
  auditActionLabel,
} from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { AdminTable, formatDateTime, fromLocalInput } from '../../../components/admin-table/index.ts';
import { AuditDiffView, summarizeDiff } from '../../../components/audit-diff/index.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { viewerTimeZone } from '../../../lib/dates.ts';
import { auditActionsQuery } from '../api/audit.ts';

const targetTypeLabel = (type: string | null) => (type ? (AUDIT_TARGET_TYPE_LABELS[type] ?? type) : '—');
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
    renderCell: ({ row }) => row.targetLabel ?? targetTypeLabel(row.targetType),
  },
  {
    field: 'details',
    headerName: 'Avant → après',
    flex: 1.5,
    minWidth: 220,
    sortable: false,
    renderCell: ({ row }) => summarizeDiff(row.before, row.after),
  },
  { field: 'ip', headerName: 'IP', width: 130, renderCell: ({ row }) => row.ip ?? '—' },
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
  const [open, setOpen] = useState<AuditEntry | null>(null);

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
        onRowClick={setOpen}
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
      <Dialog open={open !== null} onClose={() => setOpen(null)} fullWidth maxWidth="md">
        <DialogTitle>{open ? auditActionLabel(open.action) : ''}</DialogTitle>
        <DialogContent>
          {open ? (
            <>
              <Box
                sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, mb: 2 }}
              >
                <Typography color="text.secondary">Date</Typography>
                <Typography>{formatDateTime(open.at)}</Typography>
                <Typography color="text.secondary">Auteur</Typography>
                <Typography>
                  {open.actorId ? (
                    <RouterLink to={`/admin/users/${open.actorId}`} style={{ color: 'inherit' }}>
                      {open.actorUsername}
                    </RouterLink>
                  ) : (
                    (open.actorUsername ?? 'Système')
                  )}
                </Typography>
                <Typography color="text.secondary">Action</Typography>
                <Typography title={open.action}>{auditActionLabel(open.action)}</Typography>
                <Typography color="text.secondary">Cible</Typography>
                <Typography>
                  {open.targetType === 'user' && open.targetId ? (
                    <RouterLink to={`/admin/users/${open.targetId}`} style={{ color: 'inherit' }}>
                      {open.targetLabel ?? open.targetId}
                    </RouterLink>
                  ) : (
                    `${targetTypeLabel(open.targetType)} ${open.targetLabel ?? open.targetId ?? ''}`
                  )}
                </Typography>
                <Typography color="text.secondary">IP</Typography>
                <Typography>{open.ip ?? '—'}</Typography>
              </Box>
              <AuditDiffView before={open.before} after={open.after} />
            </>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(null)}>Fermer</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
