import { formatPrice, ORDER_STATUS_LABELS } from '@bot/contracts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { formatDate, formatDateTime } from '../../../components/admin-table/index.ts';
import { userOrdersQuery, userWhitelistQuery } from '../api/admin-users.ts';
import { Section } from './section.tsx';

export function OrdersSection({ userId }: { userId: string }) {
  const orders = useQuery(userOrdersQuery(userId));
  return (
    <Section title="Achats">
      {orders.isError ? (
        <Typography color="text.secondary">Achats indisponibles.</Typography>
      ) : (orders.data ?? []).length === 0 ? (
        <Typography color="text.secondary">Aucun achat.</Typography>
      ) : (
        <Box sx={{ overflowX: 'auto', maxHeight: 360 }}>
          <Table size="small" stickyHeader aria-label="Achats">
            <TableHead>
              <TableRow>
                <TableCell>N°</TableCell>
                <TableCell>Offre</TableCell>
                <TableCell>Montant</TableCell>
                <TableCell>Statut</TableCell>
                <TableCell>Période</TableCell>
                <TableCell>Créée le</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(orders.data ?? []).map((order) => (
                <TableRow key={order.id}>
                  <TableCell>{order.number}</TableCell>
                  <TableCell>{order.packageName}</TableCell>
                  <TableCell>{formatPrice(order.amountCents, order.currency)}</TableCell>
                  <TableCell>
                    <Chip size="small" label={ORDER_STATUS_LABELS[order.status] ?? order.status} />
                  </TableCell>
                  <TableCell>
                    {order.startsAt ? `${formatDate(order.startsAt)} → ${formatDate(order.endsAt)}` : '—'}
                  </TableCell>
                  <TableCell>{formatDateTime(order.createdAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Section>
  );
}

export function WhitelistSection({ userId }: { userId: string }) {
  const names = useQuery(userWhitelistQuery(userId));
  return (
    <Section title="Liste blanche" subheader="Comptes de jeu que le bot de l'utilisateur peut piloter.">
      {(names.data ?? []).length === 0 ? (
        <Typography color="text.secondary">Aucun compte de jeu.</Typography>
      ) : (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {(names.data ?? []).map((name) => (
            <Chip key={name} size="small" label={name} />
          ))}
        </Box>
      )}
    </Section>
  );
}
