import type { BotHistoryPoint, BotState } from '@bot/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { BarChart } from '../../../components/bar-chart.tsx';
import { LiveOfflineBanner } from '../../../components/live-offline-banner.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { dateTimeSeconds as dateTimeFormat } from '../../../lib/dates.ts';
import { useLiveData } from '../../../lib/socket/hooks.ts';
import {
  type LiveConnectionState,
  type LiveEvent,
  liveKeys,
  replaceMinutes,
  socketClient,
  watchBot,
} from '../../../lib/socket/index.ts';
import { BotKeyCard, HwidCard } from '../../account/index.ts';
import { fetchMeInfo } from '../../auth/index.ts';
import { BotLogCard } from '../../bot-log/index.ts';
import { BotTimelineView, myBotTimelineQuery } from '../../bot-timeline/index.ts';
import { AlertsCard } from '../../notifications/index.ts';
import { DownloadCard } from '../../releases/index.ts';
import { hourlySeries, myBotKeys, myBotQuery } from '../api/mybot.ts';
import { AccountsTable } from '../components/accounts-table.tsx';
import { BotCommandsCard } from '../components/bot-commands-card.tsx';
import { BotPresenceChip } from '../components/bot-presence-chip.tsx';
import { EventLog } from '../components/event-log.tsx';
import { FirstRunGuide } from '../components/first-run-guide.tsx';

const NO_EVENTS: LiveEvent[] = [];
const NO_MINUTES: BotHistoryPoint[] = [];

const CONNECTION_LABELS: Record<LiveConnectionState, string> = {
  reconnecting: 'Reconnexion au direct…',
  connecting: 'Connexion au direct…',
  connected: 'Direct actif',
  disconnected: 'Direct interrompu',
  refused: 'Direct refusé',
};

/** Connections, errors, payments and actions on the customer's PC over 30 days. */
function MyBotTimeline() {
  const timeline = useQuery(myBotTimelineQuery);
  // No PC ever bound: the first-run guide says what to do, there is no history yet.
  if (!timeline.data?.hwid) return null;
  return (
    <SectionCard
      id="historique"
      title="Historique du bot"
      subheader="Les 30 derniers jours, du plus récent au plus ancien."
    >
      <BotTimelineView timeline={timeline.data} />
    </SectionCard>
  );
}

/** /account/mybot: the customer's bot live (socket) with its last 24 h (GET /me/bot). */
export default function MyBotPage() {
  const queryClient = useQueryClient();
  const bot = useQuery({
    ...myBotQuery,
    // Bound, the chart follows the socket (`bot_history`); not yet, the page waits for the bot to bind.
    refetchInterval: (query) => (query.state.data?.hwid ? false : 5_000),
  });
  const hwid = bot.data?.hwid ?? null;
  const storedHwid = useAuthStore((state) => state.user?.hwid ?? null);
  const setUser = useAuthStore((state) => state.setUser);

  // The socket writes the live state, the connection state and the event log to the query cache.
  useEffect(() => {
    if (!hwid) return;
    return watchBot(queryClient, socketClient, hwid);
  }, [queryClient, hwid]);

  // The bot bound a PC since sign-in: refresh the user so the hwid card shows it.
  useEffect(() => {
    if (bot.data && bot.data.hwid !== storedHwid) {
      fetchMeInfo()
        .then(setUser)
        .catch(() => undefined);
    }
  }, [bot.data, storedHwid, setUser]);

  const liveState = useLiveData<BotState | null>(liveKeys.bot(hwid ?? 'none'), null);
  const connection = useLiveData<LiveConnectionState>(liveKeys.botConnection(hwid ?? 'none'), 'connecting');
  const events = useLiveData<LiveEvent[]>(liveKeys.botEvents(hwid ?? 'none'), NO_EVENTS);
  const minutes = useLiveData<BotHistoryPoint[]>(liveKeys.botMinutes(hwid ?? 'none'), NO_MINUTES);
  useRefetchAfterReconnection(connection, async () => {
    // Minutes written while the socket was away were never pushed, and a pushed one may have grown.
    await bot.refetch();
    if (hwid) queryClient.setQueryData(liveKeys.botMinutes(hwid), NO_MINUTES);
  });
  const state = liveState ?? bot.data?.state ?? null;
  // Paused or not, as far as the live connection tells (undefined: offline or not known now).
  const paused = connection === 'connected' && state?.online ? state.paused === true : undefined;
  const history = bot.data?.history;
  const series = useMemo(() => hourlySeries(replaceMinutes(history ?? [], minutes)), [history, minutes]);
  const isFirstRun = bot.data !== undefined && !hwid && (history?.length ?? 0) === 0;
  // The checklist stays once shown: its last step turns green when the bot connects, until put away.
  const [isChecklistShown, setIsChecklistShown] = useState(false);
  useEffect(() => {
    if (isFirstRun) setIsChecklistShown(true);
  }, [isFirstRun]);

  const onHwidChanged = () => void queryClient.invalidateQueries({ queryKey: myBotKeys.bot });

  return (
    <>
      <PageHeader title="Mon bot" subtitle="Suivez votre bot en direct.">
        {hwid ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <BotPresenceChip state={state} connection={connection} />
            <Chip
              data-testid="mybot-connection"
              data-state={connection}
              variant="outlined"
              label={CONNECTION_LABELS[connection]}
            />
          </Stack>
        ) : null}
      </PageHeader>
      <LiveOfflineBanner state={connection} />

      {bot.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label="Chargement" />
        </Box>
      ) : null}
      {bot.isError ? <Alert severity="error">Impossible de charger votre bot.</Alert> : null}

      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '2fr 1fr' } }}>
        <Stack spacing={3} sx={{ minWidth: 0 }}>
          {isChecklistShown ? (
            <FirstRunGuide isConnected={hwid !== null} onHide={() => setIsChecklistShown(false)} />
          ) : null}
          {hwid ? (
            <SectionCard
              title="État du bot"
              subheader={
                state
                  ? `Version ${state.version} · connecté depuis ${dateTimeFormat.format(new Date(state.connectedAt))} · vu le ${dateTimeFormat.format(new Date(state.lastSeenAt))}`
                  : 'Le bot n’est pas connecté en ce moment.'
              }
            >
              <Box data-testid="mybot-state" data-hwid={hwid}>
                {state?.online ? (
                  <AccountsTable accounts={state.accounts} paused={state.paused === true} />
                ) : (
                  <Typography color="text.secondary" data-testid="mybot-offline">
                    {state
                      ? `Le bot est hors ligne (dernier signe de vie le ${dateTimeFormat.format(new Date(state.lastSeenAt))}).`
                      : 'Le bot est hors ligne. Lancez-le sur votre PC pour le suivre ici.'}
                  </Typography>
                )}
              </Box>
            </SectionCard>
          ) : null}
          {bot.data && !isFirstRun ? (
            <SectionCard
              title="Dernières 24 heures"
              subheader="Totaux par heure, tous comptes de jeu confondus."
            >
              <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
                <BarChart
                  title="Récoltes"
                  testId="chart-gathered"
                  times={series.hours}
                  period="sur 24 h"
                  values={series.gathered}
                  color="#66bb6a"
                />
                <BarChart
                  title="Trésors"
                  testId="chart-treasures"
                  times={series.hours}
                  period="sur 24 h"
                  values={series.treasures}
                  color="#ffca28"
                />
                <BarChart
                  title="Kamas"
                  testId="chart-kamas"
                  times={series.hours}
                  period="sur 24 h"
                  values={series.kamas}
                  color="#4fc3f7"
                />
                <BarChart
                  title="Expérience"
                  testId="chart-xp"
                  times={series.hours}
                  period="sur 24 h"
                  values={series.xp}
                  color="#ab47bc"
                />
              </Box>
            </SectionCard>
          ) : null}
          <MyBotTimeline />
        </Stack>
        <Stack spacing={3} sx={{ minWidth: 0 }}>
          {hwid ? <BotCommandsCard hwid={hwid} accounts={state?.accounts ?? []} paused={paused} /> : null}
          {hwid ? (
            <SectionCard title="Événements en direct">
              <EventLog events={events} />
            </SectionCard>
          ) : null}
          {hwid ? <BotLogCard scope="me" hwid={hwid} online={state?.online ?? false} /> : null}
          {/* First in its column: the build's notes and checksum, next to the checklist's button. */}
          <DownloadCard />
          <BotKeyCard />
          <HwidCard onChanged={onHwidChanged} />
          <AlertsCard />
          {!hwid && !isFirstRun ? (
            <Typography color="text.secondary">
              Aucun PC lié : le bot se liera au prochain PC qui se connecte.
            </Typography>
          ) : null}
        </Stack>
      </Box>
    </>
  );
}

/** Runs `refetch` each time the live connection comes back after it was lost (not when it first opens). */
function useRefetchAfterReconnection(connection: LiveConnectionState, refetch: () => Promise<void>) {
  const wasLost = useRef(false);
  const latest = useRef(refetch);
  latest.current = refetch;
  useEffect(() => {
    if (connection === 'reconnecting') wasLost.current = true;
    else if (connection === 'connected' && wasLost.current) {
      wasLost.current = false;
      void latest.current();
    }
  }, [connection]);
}
