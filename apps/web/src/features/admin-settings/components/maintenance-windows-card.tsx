import {
  MAINTENANCE_SCOPE_LABELS,
  MAINTENANCE_SCOPES,
  MAINTENANCE_WINDOW_STATE_LABELS,
  type MaintenanceScope,
  type MaintenanceWindow,
} from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { formatDateTime } from '../../../components/admin-table/index.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { LIVE_EVENTS } from '../../../lib/live-events.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import {
  cancelMaintenanceWindow,
  maintenanceWindowsKeys,
  maintenanceWindowsQuery,
  scheduleMaintenanceWindow,
} from '../api/maintenance-windows.ts';

/** `<input type="datetime-local">` speaks local time without a zone: YYYY-MM-DDTHH:mm. */
function localInput(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function nextMinute(offsetMs = 0): Date {
  const date = new Date(Date.now() + offsetMs + 60_000);
  date.setSeconds(0, 0);
  return date;
}

const isOpen = (window: MaintenanceWindow) => window.state === 'scheduled' || window.state === 'running';

/**
 * The open window the one being scheduled would overlap, if any: while both run, the banner shows
 * only one message (decision 907), which staff should know before saving.
 */
export function overlappedWindow(
  windows: readonly MaintenanceWindow[],
  startsAt: Date,
  endsAt: Date,
): MaintenanceWindow | undefined {
  return windows.find(
    (item) => isOpen(item) && new Date(item.startsAt) < endsAt && startsAt < new Date(item.endsAt),
  );
}

/**
 * The warning under the message: which message the banner shows while the two windows overlap (the
 * one started first; the existing one when they start together, it was scheduled first).
 */
export function overlapText(overlapped: MaintenanceWindow, startsAt: Date): string {
  const shown = startsAt < new Date(overlapped.startsAt) ? 'ce nouveau message' : `« ${overlapped.message} »`;
  return `Cette fenêtre chevauche « ${overlapped.message} » : pendant le chevauchement, la bannière affichera ${shown}.`;
}

/** When a window runs, or ran: a cancelled one that had started says when it really stopped. */
function periodText(item: { startsAt: string; endsAt: string; cancelledAt: string | null }): string {
  const stopped = item.cancelledAt && item.cancelledAt < item.endsAt ? item.cancelledAt : null;
  if (stopped && stopped > item.startsAt)
    return `Du ${formatDateTime(item.startsAt)} au ${formatDateTime(stopped)} (arrêtée avant la fin prévue, ${formatDateTime(item.endsAt)})`;
  if (stopped)
    return `Prévue du ${formatDateTime(item.startsAt)} au ${formatDateTime(item.endsAt)}, annulée avant de commencer`;
  return `Du ${formatDateTime(item.startsAt)} au ${formatDateTime(item.endsAt)}`;
}

/**
 * Scheduled maintenance windows (decision 907): while one runs, the alerts of its scope are muted
 * and the site banner shows its message; listed with their state, cancellable until they end.
 */
export function MaintenanceWindowsCard() {
  const queryClient = useQueryClient();
  const windows = useQuery(maintenanceWindowsQuery).data ?? [];
  const [startsAt, setStartsAt] = useState(() => localInput(nextMinute()));
  const [endsAt, setEndsAt] = useState(() => localInput(nextMinute(3_600_000)));
  const [message, setMessage] = useState('');
  const [scope, setScope] = useState<MaintenanceScope>('all');
  const [isWorking, setIsWorking] = useState(false);
  const [cancelling, setCancelling] = useState<MaintenanceWindow | null>(null);
  const isBackwards = Boolean(startsAt && endsAt && new Date(endsAt) <= new Date(startsAt));
  const overlapped =
    startsAt && endsAt && !isBackwards
      ? overlappedWindow(windows, new Date(startsAt), new Date(endsAt))
      : undefined;

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: maintenanceWindowsKeys.all });
    // This tab's banner follows at once (a window may start now); others follow by socket or polling.
    window.dispatchEvent(new Event(LIVE_EVENTS.publicSettingsRefresh));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isBackwards || !message.trim()) return;
    setIsWorking(true);
    try {
      await scheduleMaintenanceWindow({
        startsAt: new Date(startsAt).toISOString(),
        endsAt: new Date(endsAt).toISOString(),
        message: message.trim(),
        scope,
      });
      notifySuccess('Fenêtre de maintenance programmée.');
      setMessage('');
      await refresh();
    } catch {
      // shown by the API client
    } finally {
      setIsWorking(false);
    }
  };

  const cancel = async () => {
    if (!cancelling) return;
    setIsWorking(true);
    try {
      await cancelMaintenanceWindow(cancelling.id);
      notifySuccess('Fenêtre de maintenance annulée.');
      setCancelling(null);
      await refresh();
    } catch {
      // shown by the API client
    } finally {
      setIsWorking(false);
    }
  };

  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardHeader title="Fenêtres de maintenance" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
      <CardContent sx={{ pt: 0 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Pendant une fenêtre, les alertes causées par la plateforme sont suspendues et la bannière du site
          affiche son message. Après, ce qui dure encore est signalé une fois, après 15 minutes de calme.
        </Typography>
        <Box
          component="form"
          onSubmit={submit}
          noValidate
          aria-label="Programmer une fenêtre de maintenance"
          sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}
        >
          <TextField
            type="datetime-local"
            label="Début"
            value={startsAt}
            onChange={(event) => setStartsAt(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="datetime-local"
            label="Fin"
            value={endsAt}
            onChange={(event) => setEndsAt(event.target.value)}
            error={isBackwards}
            helperText={isBackwards ? 'La fin doit suivre le début.' : 'Au plus 7 jours après le début.'}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="Message de la bannière"
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
            helperText={
              overlapped ? overlapText(overlapped, new Date(startsAt)) : 'Affiché à tous pendant la fenêtre.'
            }
            required
          />
          <TextField
            select
            label="Alertes suspendues"
            value={scope}
            onChange={(event) => setScope(event.target.value as MaintenanceScope)}
            slotProps={{ select: { native: true } }}
          >
            {MAINTENANCE_SCOPES.map((value) => (
              <option key={value} value={value}>
                {MAINTENANCE_SCOPE_LABELS[value]}
              </option>
            ))}
          </TextField>
          <div>
            <Button type="submit" variant="contained" disabled={isWorking || isBackwards || !message.trim()}>
              Programmer
            </Button>
          </div>
        </Box>
        <List dense aria-label="Fenêtres de maintenance">
          {windows.length === 0 ? (
            <ListItem disableGutters>
              <ListItemText secondary="Aucune fenêtre programmée." />
            </ListItem>
          ) : null}
          {windows.map((item) => (
            <ListItem
              key={item.id}
              disableGutters
              secondaryAction={
                isOpen(item) ? (
                  <Button
                    color="error"
                    size="small"
                    aria-label={`Annuler la fenêtre « ${item.message} »`}
                    onClick={() => setCancelling(item)}
                  >
                    Annuler
                  </Button>
                ) : null
              }
            >
              <ListItemText
                primary={`${MAINTENANCE_WINDOW_STATE_LABELS[item.state]} — ${item.message}`}
                secondary={`${periodText(item)} · ${MAINTENANCE_SCOPE_LABELS[item.scope]} · par ${item.createdBy ?? '—'}`}
              />
            </ListItem>
          ))}
        </List>
      </CardContent>
      <ConfirmDialog
        open={cancelling !== null}
        title={
          cancelling?.state === 'running' ? 'Arrêter cette fenêtre maintenant ?' : 'Annuler cette fenêtre ?'
        }
        confirmLabel={cancelling?.state === 'running' ? 'Arrêter la fenêtre' : 'Annuler la fenêtre'}
        cancelLabel="Garder la fenêtre"
        isBusy={isWorking}
        onConfirm={cancel}
        onCancel={() => setCancelling(null)}
      >
        {cancelling?.state === 'running'
          ? 'La fenêtre se termine maintenant : la bannière disparaît et les alertes reprennent (ce qui dure encore est signalé après 15 minutes de calme).'
          : 'La fenêtre ne commencera pas.'}
      </ConfirmDialog>
    </Card>
  );
}
