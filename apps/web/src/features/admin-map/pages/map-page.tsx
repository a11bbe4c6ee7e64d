import { BOT_STATUS_LABELS, BOT_STATUSES, type BotStatus } from '@bot/contracts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { LiveOfflineBanner } from '../../../components/live-offline-banner.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { STATUS_COLORS } from '../../../components/status-chip.tsx';
import { useLiveData } from '../../../lib/socket/hooks.ts';
import { type LiveConnectionState, liveKeys, socketClient, watchFleet } from '../../../lib/socket/index.ts';
import { BotPanel } from '../components/bot-panel.tsx';
import { LiveMap } from '../components/live-map.tsx';
import { useFleetBot } from '../feed/use-fleet-bot.ts';
import type { MapFilter } from '../render/fleet-buffers.ts';

const numberFormat = new Intl.NumberFormat('fr-FR');

const CONNECTION_LABELS: Record<LiveConnectionState, string> = {
  reconnecting: 'Reconnexion…',
  connecting: 'Connexion…',
  connected: 'En direct',
  disconnected: 'Déconnecté',
  refused: 'Accès refusé',
};

/** /admin/map: every online game account drawn live on a canvas from the admin socket. */
export default function MapPage() {
  const queryClient = useQueryClient();
  const [statuses, setStatuses] = useState<ReadonlySet<BotStatus>>(new Set());
  const [ownerSearch, setOwnerSearch] = useState('');
  const owner = useDeferredValue(ownerSearch);
  const [versionSearch, setVersionSearch] = useState('');
  const version = useDeferredValue(versionSearch);
  const [selectedHwid, setSelectedHwid] = useState<string | null>(null);
  const [counts, setCounts] = useState({ online: 0, accounts: 0, shown: 0 });
  const connection = useLiveData<LiveConnectionState>(liveKeys.fleetConnection, 'connecting');
  const selected = useFleetBot(selectedHwid);
  const filter = useMemo<MapFilter>(() => ({ statuses, owner, version }), [statuses, owner, version]);

  useEffect(() => watchFleet(queryClient, socketClient), [queryClient]);

  const toggleStatus = (status: BotStatus) => {
    const next = new Set(statuses);
    if (next.has(status)) next.delete(status);
    else next.add(status);
    setStatuses(next);
  };

  return (
    <>
      <PageHeader title="Carte" subtitle="Carte en direct de tous les bots en ligne.">
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Chip
            color="success"
            label={
              <span>
                Bots en ligne :{' '}
                <strong data-testid="map-online-count" data-count={counts.online}>
                  {numberFormat.format(counts.online)}
                </strong>
              </span>
            }
          />
          <Chip
            variant="outlined"
            label={
              <span>
                Comptes sur la carte :{' '}
                <strong data-testid="map-accounts-count" data-count={counts.accounts}>
                  {numberFormat.format(counts.accounts)}
                </strong>
                {counts.shown !== counts.accounts ? ` (${numberFormat.format(counts.shown)} affichés)` : ''}
              </span>
            }
          />
          <Chip
            data-testid="map-connection"
            data-state={connection}
            variant="outlined"
            label={CONNECTION_LABELS[connection]}
          />
        </Stack>
      </PageHeader>
      <LiveOfflineBanner state={connection} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { md: 'center' } }}>
        <TextField
          size="small"
          label="Propriétaire"
          placeholder="Rechercher un utilisateur"
          value={ownerSearch}
          onChange={(event) => setOwnerSearch(event.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'map-owner-filter' } }}
        />
        <TextField
          size="small"
          label="Version du bot"
          placeholder="ex. 1.4"
          value={versionSearch}
          onChange={(event) => setVersionSearch(event.target.value)}
          // Never squeezed by the status chips beside it (it read "Versi…").
          sx={{ width: { md: 150 }, flexShrink: 0 }}
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }} role="group" aria-label="Filtrer par statut">
          {BOT_STATUSES.map((status) => {
            const isOn = statuses.has(status);
            return (
              <Chip
                key={status}
                size="small"
                label={BOT_STATUS_LABELS[status]}
                onClick={() => toggleStatus(status)}
                variant={isOn || statuses.size === 0 ? 'filled' : 'outlined'}
                aria-pressed={isOn}
                sx={{
                  bgcolor: isOn || statuses.size === 0 ? STATUS_COLORS[status] : undefined,
                  color: isOn || statuses.size === 0 ? '#111' : undefined,
                  borderColor: STATUS_COLORS[status],
                  fontWeight: 600,
                }}
              />
            );
          })}
        </Box>
      </Stack>
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ alignItems: 'stretch' }}>
        <LiveMap
          filter={filter}
          selectedHwid={selectedHwid}
          onSelect={setSelectedHwid}
          onCounts={setCounts}
        />
        {selectedHwid ? (
          <BotPanel hwid={selectedHwid} state={selected} onClose={() => setSelectedHwid(null)} />
        ) : null}
      </Stack>
      <Typography variant="caption" color="text.secondary" sx={{ mt: 1, display: 'block' }}>
        Glisser pour déplacer, molette pour zoomer, clic sur un point pour le détail. Vue éloignée : les
        comptes sont regroupés.
      </Typography>
    </>
  );
}
