import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { diffValues, formatValue } from './audit-diff.ts';

const KIND_COLORS = {
  added: 'success.main',
  removed: 'error.main',
  changed: 'warning.main',
  same: 'text.secondary',
};
const KIND_LABELS = { added: 'ajouté', removed: 'retiré', changed: 'modifié', same: 'inchangé' };

/** Before/after of an audit entry, field by field, changes highlighted. */
export function AuditDiffView({
  before,
  after,
  labels,
}: {
  before: unknown;
  after: unknown;
  labels?: Record<string, string>;
}) {
  const lines = diffValues(before, after);
  if (lines.length === 0) return <Typography color="text.secondary">Aucun détail enregistré.</Typography>;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Différences avant et après">
        <TableHead>
          <TableRow>
            <TableCell>Champ</TableCell>
            <TableCell>Avant</TableCell>
            <TableCell>Après</TableCell>
            <TableCell>Changement</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.map((line) => (
            <TableRow key={line.key} data-kind={line.kind}>
              <TableCell>{labels?.[line.key] ?? line.key}</TableCell>
              <TableCell
                sx={{ color: line.kind === 'same' ? 'text.secondary' : undefined, wordBreak: 'break-word' }}
              >
                {line.kind === 'added' ? '—' : formatValue(line.before)}
              </TableCell>
              <TableCell sx={{ fontWeight: line.kind === 'same' ? undefined : 600, wordBreak: 'break-word' }}>
                {line.kind === 'removed' ? '—' : formatValue(line.after)}
              </TableCell>
              <TableCell sx={{ color: KIND_COLORS[line.kind] }}>{KIND_LABELS[line.kind]}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
