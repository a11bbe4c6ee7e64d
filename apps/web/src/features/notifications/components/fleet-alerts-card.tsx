import {
  FLEET_ALERT_FIELDS,
  FLEET_ALERT_PERMISSIONS,
  FLEET_ALERT_RULES,
  FLEET_ERROR_PERCENT_MAX,
  FLEET_ERROR_PERCENT_MIN,
  type FleetAlertPreferences,
  type FleetAlertPreferencesAnswer,
  type FleetAlertRule,
  fleetAlertPreferencesSchema,
  KEY_SET_EXPIRY_WARNING_DAYS,
  MAIL_BACKLOG_MINUTES,
  WEBHOOK_FAILURES_THRESHOLD,
  WEBHOOK_FAILURES_WINDOW_MINUTES,
} from '@bot/contracts';
import Button from '@mui/material/Button';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { SectionCard } from '../../../components/section-card.tsx';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';
import {
  alertPreferencesQuery,
  fleetAlertPreferencesQuery,
  notificationKeys,
  saveFleetAlertPreferences,
} from '../api/notifications.ts';
import { ChannelsLine, RuleCheckbox, RuleNumberField } from './alert-fields.tsx';

const OPENING_PERMISSIONS = new Set(Object.values(FLEET_ALERT_PERMISSIONS).flat());

const RULE_LABELS: Record<FleetAlertRule, string> = {
  fleet_errors: 'la part des bots en ligne ayant un compte en erreur atteint…',
  payment_webhooks: `les webhooks de paiement Stripe échouent (${WEBHOOK_FAILURES_THRESHOLD} appels refusés en ${WEBHOOK_FAILURES_WINDOW_MINUTES} min)`,
  mail_backlog: `un e-mail attend d’être envoyé depuis plus de ${MAIL_BACKLOG_MINUTES} min`,
  release_halted:
    'le déploiement d’une nouvelle version s’arrête de lui-même (ses bots font pire que la version précédente)',
  key_set_expiring: `le jeu de clés signé par la clé racine expire dans moins de ${KEY_SET_EXPIRY_WARNING_DAYS} jours (passé ce délai, les bots refusent tout bail)`,
};

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
  const saved = useQuery(fleetAlertPreferencesQuery);
  return saved.data ? <FleetAlertsFields answer={saved.data} /> : null;
}

function FleetAlertsFields({ answer }: { answer: FleetAlertPreferencesAnswer }) {
  const queryClient = useQueryClient();
  const channels = useQuery(alertPreferencesQuery).data?.channels;
  const form = useForm<FleetAlertPreferences>({
    resolver: schemaResolver(fleetAlertPreferencesSchema),
    values: answer.data,
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      // A rule the permissions no longer open is not shown: it is sent off (the server would too).
      const closed = FLEET_ALERT_RULES.filter((rule) => !answer.allowed.includes(rule));
      const next = await saveFleetAlertPreferences({
        ...values,
        ...Object.fromEntries(closed.map((rule) => [FLEET_ALERT_FIELDS[rule], false])),
      });
      queryClient.setQueryData(notificationKeys.fleet, next);
      notifySuccess('Alertes de la flotte enregistrées.');
    } catch {
      // shown by the API client
    }
  });
  return (
    <SectionCard
      id="alertes-flotte"
      title="Alertes de la flotte"
      subheader="Pour le staff : soyez prévenu quand la flotte, les paiements ou les e-mails vont mal, puis quand tout repart. Vos permissions décident des alertes proposées."
    >
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Alertes de la flotte">
        <FormGroup>
          <FormLabel component="legend">Me prévenir quand</FormLabel>
          {answer.allowed.map((rule) => (
            <Stack key={rule}>
              <RuleCheckbox
                control={form.control}
                name={FLEET_ALERT_FIELDS[rule]}
                label={RULE_LABELS[rule]}
              />
              {rule === 'fleet_errors' ? (
                <RuleNumberField
                  control={form.control}
                  name="fleetErrorPercent"
                  label="Seuil (% des bots en ligne)"
                  min={FLEET_ERROR_PERCENT_MIN}
                  max={FLEET_ERROR_PERCENT_MAX}
                />
              ) : null}
            </Stack>
          ))}
        </FormGroup>
        <ChannelsLine channels={channels} />
        <div>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
            Enregistrer les alertes de la flotte
          </Button>
        </div>
      </Stack>
    </SectionCard>
  );
}
