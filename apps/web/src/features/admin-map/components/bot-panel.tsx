import type { BotState } from '@bot/contracts';
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { BotCommandControls, useRouteNames } from '../../../components/bot-commands/index.ts';
import { StatusChip } from '../../../components/status-chip.tsx';
import { dateTimeSeconds as dateTimeFormat } from '../../../lib/dates.ts';

const numberFormat = new Intl.NumberFormat('fr-FR');

/** Details of the bot clicked on the map; `state` null means it went offline. */
export function BotPanel({
  hwid,
  state,
  onClose,
}: {
  hwid: string;
  state: BotState | null;
  onClose: () => void;
}) {
  const routeName = useRouteNames('staff');
  const paused = state?.online ? state.paused === true : undefined;
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, width: { xs: '100%', lg: 340 }, flexShrink: 0, overflowY: 'auto' }}
      data-testid="map-panel"
      data-hwid={hwid}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography variant="h2" sx={{ fontSize: '1.1rem', flexGrow: 1 }}>
          {state ? state.owner.username : 'Bot hors ligne'}
        </Typography>
        <IconButton aria-label="Fermer" onClick={onClose} size="small">
          <CloseIcon />
        </IconButton>
      </Box>
      <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {hwid}
      </Typography>
      {state?.paused ? (
        <Chip size="small" color="warning" label="En pause" data-testid="map-panel-paused" sx={{ mt: 1 }} />
      ) : null}
      {state ? (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            Version {state.version} · connecté depuis {dateTimeFormat.format(new Date(state.connectedAt))}
            <br />
            Dernier signe de vie : {dateTimeFormat.format(new Date(state.lastSeenAt))}
          </Typography>
          <Link
            component={RouterLink}
            to={`/admin/users/${state.owner.id}#historique-du-bot`}
            variant="body2"
            sx={{ display: 'inline-block', mt: 0.5 }}
          >
            Historique du bot et fiche du client
          </Link>
          <Divider sx={{ my: 1.5 }} />
          <Stack spacing={1.5}>
            {state.accounts.map((account) => (
              <Box key={account.name}>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                  <Typography sx={{ fontWeight: 600, flexGrow: 1 }}>
                    {account.character}{' '}
                    <Typography component="span" variant="caption" color="text.secondary">
                      ({account.name}, niv. {account.level})
                    </Typography>
                  </Typography>
                  <StatusChip status={account.status} paused={paused} />
                </Box>
                <Typography variant="body2" color="text.secondary">
                  Position [{account.position.x}, {account.position.y}] · itinéraire{' '}
                  <span data-testid="map-panel-route">
                    {account.routeId ? routeName(account.routeId) : '—'}
                  </span>
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  Récoltes {numberFormat.format(account.stats.gathered)} · trésors{' '}
                  {numberFormat.format(account.stats.treasures)} · kamas{' '}
                  {numberFormat.format(account.stats.kamas)} · XP {numberFormat.format(account.stats.xp)}
                </Typography>
                {account.message ? <Typography variant="caption">{account.message}</Typography> : null}
              </Box>
            ))}
          </Stack>
        </>
      ) : (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          Ce bot s’est déconnecté.
        </Typography>
      )}
      <Divider sx={{ my: 1.5 }} />
      {/* Staff's remote commands; the admin socket writes every command's state (decision 208). */}
      <Box data-testid="map-panel-commands">
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          Commandes à distance
        </Typography>
        <BotCommandControls hwid={hwid} scope="staff" accounts={state?.accounts ?? []} paused={paused} live />
      </Box>
    </Paper>
  );
}
