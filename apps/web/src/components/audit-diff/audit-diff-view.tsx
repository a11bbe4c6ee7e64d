import { auditFieldLabel } from '@bot/contracts';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Fragment } from 'react';
import { type DiffLine, diffValues, formatValue } from './audit-diff.ts';

const KIND_COLORS = {
  added: 'success.main',
  removed: 'error.main',
  changed: 'warning.main',
  same: 'text.secondary',
};
const KIND_LABELS = { added: 'ajouté', removed: 'retiré', changed: 'modifié', same: 'inchangé' };

const isEmpty = (value: unknown) => value === null || value === undefined;

/**
 * Before/after of an audit entry in French. A creation or a deletion (one side only) reads as a list
 * of fields and values; a change as a table, field by field, changes highlighted.
 */
export function AuditDiffView({ before, after }: { before: unknown; after: unknown }) {
  const lines = diffValues(before, after);
  if (lines.length === 0) return <Typography color="text.secondary">Aucun détail enregistré.</Typography>;
  if (isEmpty(before) || isEmpty(after)) {
    return (
      <FieldList
        title={isEmpty(before) ? 'Valeurs enregistrées' : 'Valeurs avant suppression'}
        lines={lines}
        side={isEmpty(before) ? 'after' : 'before'}
      />
    );
  }
  return <DiffTable lines={lines} />;
}

function FieldList({ title, lines, side }: { title: string; lines: DiffLine[]; side: 'before' | 'after' }) {
  return (
    <Box data-testid="audit-detail">
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: 'minmax(8rem, auto) 1fr',
          columnGap: 2,
          rowGap: 0.5,
          m: 0,
        }}
      >
        {lines.map((line) => (
          <Fragment key={line.key}>
            <Typography component="dt" color="text.secondary">
              {auditFieldLabel(line.key)}
            </Typography>
            <Typography component="dd" sx={{ m: 0, wordBreak: 'break-word' }}>
              {formatValue(line[side], line.key)}
            </Typography>
          </Fragment>
        ))}
      </Box>
    </Box>
  );
}

function DiffTable({ lines }: { lines: DiffLine[] }) {
  return (
    <Box sx={{ overflowX: 'auto' }} data-testid="audit-detail">
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
              <TableCell>{auditFieldLabel(line.key)}</TableCell>
              <TableCell
                sx={{ color: line.kind === 'same' ? 'text.secondary' : undefined, wordBreak: 'break-word' }}
              >
                {line.kind === 'added' ? '—' : formatValue(line.before, line.key)}
              </TableCell>
              <TableCell sx={{ fontWeight: line.kind === 'same' ? undefined : 600, wordBreak: 'break-word' }}>
                {line.kind === 'removed' ? '—' : formatValue(line.after, line.key)}
              </TableCell>
              <TableCell sx={{ color: KIND_COLORS[line.kind] }}>{KIND_LABELS[line.kind]}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
