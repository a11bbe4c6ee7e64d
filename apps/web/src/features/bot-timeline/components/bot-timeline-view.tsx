import {
  auditActionLabel,
  BOT_ALERT_RULE_LABELS,
  BOT_COMMAND_LABELS,
  BOT_TIMELINE_DAYS,
  BOT_TIMELINE_LABELS,
  type BotTimeline,
  type BotTimelineEntry,
  durationOf,
  formatPrice,
} from '@bot/contracts';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { BarChart } from '../../../components/bar-chart.tsx';
import { formatDate, formatDateTime } from '../../../lib/dates.ts';
import { dailyBars } from '../../../lib/time-series.ts';

const hoursFormat = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

/** "7,5 h", and minutes under an hour ("12 min"): a short day online should not read "0 h". */
function formatHours(hours: number): string {
  return hours < 1 ? `${Math.round(hours * 60)} min` : `${hoursFormat.format(hours)} h`;
}

/** Entries that call for attention are drawn in their colour; the rest stay quiet. */
const KIND_COLORS: Partial<Record<BotTimelineEntry['kind'], string>> = {
  error: 'error.main',
  recovered: 'success.main',
  connected: 'success.main',
  refund: 'warning.main',
  package_ended: 'warning.main',
  alert: 'warning.main',
  crashed: 'error.main',
  pc_changed: 'warning.main',
  pc_refused: 'error.main',
};

/** The sentence under an entry's title, in French. */
function detailOf(entry: BotTimelineEntry): string {
  switch (entry.kind) {
    case 'connected':
      return entry.version ? `Version ${entry.version}` : '';
    case 'disconnected':
      return entry.durationSeconds !== null ? `Après ${durationOf(entry.durationSeconds)} en ligne` : '';
    case 'error':
      return `${entry.account ?? ''} : ${entry.message ?? 'sans message du bot'}`;
    case 'recovered':
      return entry.account ?? '';
    case 'component_changed':
      return entry.message ?? '';
    case 'pc_changed':
      return `Changés depuis la liaison : ${entry.message ?? ''}`;
    case 'pc_refused':
      return entry.message ?? '';
    case 'crashed':
      return [entry.version ? `Version ${entry.version}` : '', entry.message].filter(Boolean).join(' : ');
    case 'action':
      return `${auditActionLabel(entry.action ?? '')}${entry.actor ? ` — par ${entry.actor}` : ''}`;
    case 'command': {
      const what = BOT_COMMAND_LABELS[entry.action as keyof typeof BOT_COMMAND_LABELS] ?? entry.action;
      const account = entry.account ? ` (${entry.account})` : '';
      return `${what}${account}${entry.actor ? ` — par ${entry.actor}` : ''} — ${entry.message ?? ''}`;
    }
    case 'payment':
      return entry.order
        ? `${entry.order.packageName}, ${formatPrice(entry.order.amountCents, entry.order.currency)} — du ${formatDate(entry.order.startsAt)} au ${formatDate(entry.order.endsAt)}`
        : '';
    case 'alert':
    case 'alert_cleared':
      return [BOT_ALERT_RULE_LABELS[entry.action ?? ''] ?? entry.action, entry.account]
        .filter(Boolean)
        .join(' : ');
    case 'refund':
    case 'package_ended':
      return entry.order ? `${entry.order.packageName} (commande n° ${entry.order.number})` : '';
    default:
      return '';
  }
}

/** A PC's bot in time: hours online per day over 30 days, then every event, newest first. */
export function BotTimelineView({ timeline }: { timeline: BotTimeline }) {
  const days = useMemo(() => {
    const bars = dailyBars(timeline.uptime, BOT_TIMELINE_DAYS);
    return { times: bars.times, values: bars.values.map((seconds) => seconds / 3600) };
  }, [timeline.uptime]);

  if (!timeline.hwid) {
    return (
      <Typography color="text.secondary">
        Aucun PC n’a encore été lié : l’historique commencera avec lui.
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <BarChart
        title="Heures en ligne par jour"
        testId="chart-uptime"
        unit="day"
        times={days.times}
        values={days.values}
        period={`sur ${BOT_TIMELINE_DAYS} jours`}
        formatValue={formatHours}
        color="#66bb6a"
      />
      {timeline.entries.length === 0 ? (
        <Typography color="text.secondary">Rien ces {BOT_TIMELINE_DAYS} derniers jours.</Typography>
      ) : (
        <Box
          component="ol"
          aria-label="Événements du bot"
          sx={{ listStyle: 'none', p: 0, m: 0 }}
          data-testid="bot-timeline"
        >
          {timeline.entries.map((entry) => (
            <Box
              component="li"
              key={entry.id}
              data-kind={entry.kind}
              sx={{
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', sm: '11rem 1fr' },
                gap: { sm: 2 },
                py: 1,
                borderTop: 1,
                borderColor: 'divider',
              }}
            >
              <Typography variant="body2" color="text.secondary" component="span">
                <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
              </Typography>
              <Box>
                <Typography component="span" sx={{ fontWeight: 600, color: KIND_COLORS[entry.kind] }}>
                  {BOT_TIMELINE_LABELS[entry.kind]}
                </Typography>
                {detailOf(entry) ? (
                  <Typography variant="body2" color="text.secondary">
                    {detailOf(entry)}
                  </Typography>
                ) : null}
              </Box>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
