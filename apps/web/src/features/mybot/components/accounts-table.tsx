import type { BotAccount } from '@bot/contracts';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { StatusChip } from '../../../components/status-chip.tsx';

const numberFormat = new Intl.NumberFormat('fr-FR');

export function AccountsTable({ accounts }: { accounts: readonly BotAccount[] }) {
  if (accounts.length === 0) {
    return <Typography color="text.secondary">Aucun compte de jeu signalé par le bot.</Typography>;
  }
  return (
    <TableContainer>
      <Table size="small" aria-label="Comptes de jeu">
        <TableHead>
          <TableRow>
            <TableCell>Compte</TableCell>
            <TableCell>Personnage</TableCell>
            <TableCell align="right">Niveau</TableCell>
            <TableCell>Statut</TableCell>
            <TableCell>Position</TableCell>
            <TableCell>Itinéraire</TableCell>
            <TableCell align="right">Récoltes</TableCell>
            <TableCell align="right">Trésors</TableCell>
            <TableCell align="right">Kamas</TableCell>
            <TableCell align="right">XP</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {accounts.map((account) => (
            <TableRow
              key={account.name}
              data-testid={`mybot-account-${account.name}`}
              data-status={account.status}
            >
              <TableCell>{account.name}</TableCell>
              <TableCell>
                {account.character}
                {account.message ? (
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                    {account.message}
                  </Typography>
                ) : null}
              </TableCell>
              <TableCell align="right">{account.level}</TableCell>
              <TableCell>
                <StatusChip status={account.status} />
              </TableCell>
              <TableCell data-testid="mybot-position">
                [{account.position.x}, {account.position.y}]
              </TableCell>
              <TableCell>{account.routeId ?? '—'}</TableCell>
              <TableCell align="right">{numberFormat.format(account.stats.gathered)}</TableCell>
              <TableCell align="right">{numberFormat.format(account.stats.treasures)}</TableCell>
              <TableCell align="right">{numberFormat.format(account.stats.kamas)}</TableCell>
              <TableCell align="right">{numberFormat.format(account.stats.xp)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
