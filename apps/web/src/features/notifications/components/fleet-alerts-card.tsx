import {
  FLEET_ALERT_PERMISSIONS,
  FLEET_ERROR_PERCENT_MAX,
  FLEET_ERROR_PERCENT_MIN,
  type FleetAlertPreferences,
  type FleetAlertRule,
  MAIL_BACKLOG_MINUTES,
  WEBHOOK_FAILURES_THRESHOLD,
  WEBHOOK_FAILURES_WINDOW_MINUTES,
} from '@bot/contracts';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { SectionCard } from '../../../components/section-card.tsx';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import {
  alertPreferencesQuery,
  fleetAlertPreferencesQuery,
  notificationKeys,
  saveFleetAlertPreferences,
} from '../api/notifications.ts';

const OPENING_PERMISSIONS = new Set(Object.values(FLEET_ALERT_PERMISSIONS).flat());

const RULE_FIELDS: Record<FleetAlertRule, { field: keyof FleetAlertPreferences; label: string }> = {
  fleet_errors: {
    field: 'fleetErrors',
    label: 'la part des bots en ligne ayant un compte en erreur atteint…',
  },
  payment_webhooks: {
    field: 'paymentWebhooks',
    label: `les webhooks de paiement Stripe échouent (${WEBHOOK_FAILURES_THRESHOLD} appels refusés en ${WEBHOOK_FAILURES_WINDOW_MINUTES} min)`,
  },
  mail_backlog: {
    field: 'mailBacklog',
    label: `un e-mail attend d’être envoyé depuis plus de ${MAIL_BACKLOG_MINUTES} min`,
  },
};

const CHANNEL_NAMES = { inApp: 'dans l’application', email: 'par e-mail', discord: 'sur Discord' } as const;

/**
 * The staff's fleet alerts on /account/notifications (decision 903), shown to holders of a permission
 * that opens one; the server checks each rule against the permissions again.
 */
export function FleetAlertsCard() {
  const isStaffWatcher = useAuthStore((state) =>
    state.permissions.some((permission) => OPENING_PERMISSIONS.has(permission)),
  );
  return isStaffWatcher ? <FleetAlertsForm /> : null;
}

function FleetAlertsForm() {
  const queryClient = useQueryClient();
  const saved = useQuery(fleetAlertPreferencesQuery);
  const channels = useQuery(alertPreferencesQuery).data?.channels;
  const [draft, setDraft] = useState<FleetAlertPreferences | null>(null);
  const [percent, setPercent] = useState('');
  useEffect(() => {
    if (saved.data) {
      setDraft(saved.data.data);
      setPercent(String(saved.data.data.fleetErrorPercent));
    }
  }, [saved.data]);
  const save = useMutation({
    mutationFn: saveFleetAlertPreferences,
    onSuccess: (next) => {
      queryClient.setQueryData(notificationKeys.fleet, next);
      notifySuccess('Alertes de la flotte enregistrées.');
    },
  });
  if (!draft || !saved.data) return null;

  const percentNumber = Number(percent);
  const percentError =
    !Number.isInteger(percentNumber) ||
    percentNumber < FLEET_ERROR_PERCENT_MIN ||
    percentNumber > FLEET_ERROR_PERCENT_MAX
      ? `Entre ${FLEET_ERROR_PERCENT_MIN} et ${FLEET_ERROR_PERCENT_MAX} %.`
      : null;
  const chosenChannels = channels
    ? (Object.keys(CHANNEL_NAMES) as (keyof typeof CHANNEL_NAMES)[])
        .filter((key) => channels[key])
        .map((key) => CHANNEL_NAMES[key])
    : [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.fleetErrors && percentError) return;
    save.mutate({ ...draft, fleetErrorPercent: percentError ? draft.fleetErrorPercent : percentNumber });
  };

  return (
    <SectionCard
      id="alertes-flotte"
      title="Alertes de la flotte"
      subheader="Pour le staff : soyez prévenu quand la flotte, les paiements ou les e-mails vont mal, puis quand tout repart. Vos permissions décident des alertes proposées."
    >
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Alertes de la flotte">
        <FormGroup>
          <FormLabel component="legend">Me prévenir quand</FormLabel>
          {saved.data.allowed.map((rule) => {
            const { field, label } = RULE_FIELDS[rule];
            return (
              <Stack key={rule}>
                <FormControlLabel
                  control={
                    <Checkbox
                      name={field}
                      checked={draft[field] === true}
                      onChange={(event) => setDraft({ ...draft, [field]: event.target.checked })}
                    />
                  }
                  label={label}
                />
                {rule === 'fleet_errors' ? (
                  <TextField
                    name="fleetErrorPercent"
                    label="Seuil (% des bots en ligne)"
                    type="number"
                    size="small"
                    value={percent}
                    onChange={(event) => setPercent(event.target.value)}
                    disabled={!draft.fleetErrors}
                    error={draft.fleetErrors && percentError !== null}
                    helperText={draft.fleetErrors ? (percentError ?? ' ') : ' '}
                    slotProps={{
                      htmlInput: { min: FLEET_ERROR_PERCENT_MIN, max: FLEET_ERROR_PERCENT_MAX, step: 1 },
                    }}
                    sx={{ maxWidth: 240, ml: 4 }}
                  />
                ) : null}
              </Stack>
            );
          })}
        </FormGroup>
        <Typography variant="body2" color="text.secondary">
          {chosenChannels.length > 0
            ? `Envoyées ${chosenChannels.join(', ')}, comme les alertes de votre bot : `
            : 'Aucun canal choisi : ces alertes ne partiront nulle part. '}
          <RouterLink to="/account/mybot#alertes">choisir les canaux</RouterLink>.
        </Typography>
        <div>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            Enregistrer les alertes de la flotte
          </Button>
        </div>
      </Stack>
    </SectionCard>
  );
}
