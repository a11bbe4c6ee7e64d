import { AUDIT_TARGET_TYPE_LABELS, type AuditEntry, auditActionLabel } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../../components/admin-table/index.ts';
import { AuditDiffView } from '../../../components/audit-diff/index.ts';

export const targetTypeLabel = (type: string | null) =>
  type ? (AUDIT_TARGET_TYPE_LABELS[type] ?? type) : '—';

/** One audit entry in French: who, what, on what, when, from where, and its before/after. */
export function AuditEntryDialog({
  entry,
  open,
  onClose,
}: {
  entry: AuditEntry | null;
  open: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{entry ? auditActionLabel(entry.action) : ''}</DialogTitle>
      <DialogContent>
        {entry ? (
          <>
            <Box sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, mb: 2 }}>
              <Typography color="text.secondary">Date</Typography>
              <Typography>{formatDateTime(entry.at)}</Typography>
              <Typography color="text.secondary">Auteur</Typography>
              <Typography>
                {entry.actorId ? (
                  <RouterLink to={`/admin/users/${entry.actorId}`} style={{ color: 'inherit' }}>
                    {entry.actorUsername}
                  </RouterLink>
                ) : (
                  (entry.actorUsername ?? 'Système')
                )}
              </Typography>
              <Typography color="text.secondary">Action</Typography>
              <Typography title={entry.action}>{auditActionLabel(entry.action)}</Typography>
              <Typography color="text.secondary">Cible</Typography>
              <Typography>
                {entry.targetType === 'user' && entry.targetId ? (
                  <RouterLink to={`/admin/users/${entry.targetId}`} style={{ color: 'inherit' }}>
                    {entry.targetLabel ?? entry.targetId}
                  </RouterLink>
                ) : (
                  `${targetTypeLabel(entry.targetType)} ${entry.targetLabel ?? entry.targetId ?? ''}`
                )}
              </Typography>
              <Typography color="text.secondary">IP</Typography>
              <Typography>{entry.ip ?? '—'}</Typography>
            </Box>
            <AuditDiffView before={entry.before} after={entry.after} />
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fermer</Button>
      </DialogActions>
    </Dialog>
  );
}
