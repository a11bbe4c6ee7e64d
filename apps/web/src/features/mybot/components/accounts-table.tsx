import type { BotAccount } from '@bot/contracts';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useRouteNames } from '../../../components/bot-commands/index.ts';
import { ScrollTable, useIsPhone } from '../../../components/scroll-table.tsx';
import { StatusChip } from '../../../components/status-chip.tsx';

const numberFormat = new Intl.NumberFormat('fr-FR');
const position = (account: BotAccount) => `[${account.position.x}, ${account.position.y}]`;

/**
 * The game accounts the bot reports, live: a table, or one card per account on a phone. `paused`:
 * the bot is paused, its working accounts read "En pause" rather than their last activity.
 */
export function AccountsTable({ accounts, paused }: { accounts: readonly BotAccount[]; paused?: boolean }) {
  const isPhone = useIsPhone();
  // The state names routes by id; the customer reads the names of those their bot may follow.
  const routeName = useRouteNames('owner');
  if (accounts.length === 0) {
    return <Typography color="text.secondary">Aucun compte de jeu signalé par le bot.</Typography>;
  }
  if (isPhone) return <AccountCards accounts={accounts} paused={paused} routeName={routeName} />;
  return (
    <ScrollTable label="Comptes de jeu en direct">
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
                <StatusChip status={account.status} paused={paused} />
              </TableCell>
              <TableCell data-testid="mybot-position" sx={{ whiteSpace: 'nowrap' }}>
                {position(account)}
              </TableCell>
              <TableCell>{account.routeId ? routeName(account.routeId) : '—'}</TableCell>
              <TableCell align="right">{numberFormat.format(account.stats.gathered)}</TableCell>
              <TableCell align="right">{numberFormat.format(account.stats.treasures)}</TableCell>
              <TableCell align="right">{numberFormat.format(account.stats.kamas)}</TableCell>
              <TableCell align="right">{numberFormat.format(account.stats.xp)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollTable>
  );
}

/** On a phone: the status and the position first, the figures below, nothing off screen. */
function AccountCards({
  accounts,
  paused,
  routeName,
}: {
  accounts: readonly BotAccount[];
  paused?: boolean;
  routeName: (id: string) => string;
}) {
  return (
    <Stack component="ul" spacing={1} aria-label="Comptes de jeu" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {accounts.map((account) => (
        <Paper
          component="li"
          variant="outlined"
          key={account.name}
          data-testid={`mybot-account-${account.name}`}
          data-status={account.status}
          sx={{ p: 1.5 }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Typography sx={{ fontWeight: 600, flexGrow: 1 }}>
              {account.name} · {account.character} (niv. {account.level})
            </Typography>
            <StatusChip status={account.status} paused={paused} />
          </Box>
          <Typography variant="body2">
            Position <span data-testid="mybot-position">{position(account)}</span>
            {account.routeId ? ` · itinéraire ${routeName(account.routeId)}` : ''}
          </Typography>
          {account.message ? (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              {account.message}
            </Typography>
          ) : null}
          <Typography variant="body2" color="text.secondary">
            {numberFormat.format(account.stats.gathered)} récoltes ·{' '}
            {numberFormat.format(account.stats.treasures)} trésors ·{' '}
            {numberFormat.format(account.stats.kamas)} kamas · {numberFormat.format(account.stats.xp)} XP
          </Typography>
        </Paper>
      ))}
    </Stack>
  );
}
