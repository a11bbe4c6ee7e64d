import {
  type AlertPreferences,
  alertPreferencesSchema,
  OFFLINE_MINUTES_MAX,
  OFFLINE_MINUTES_MIN,
} from '@bot/contracts';
import Button from '@mui/material/Button';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { SectionCard } from '../../../components/section-card.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';
import { alertPreferencesQuery, notificationKeys, saveAlertPreferences } from '../api/notifications.ts';
import { ChannelsLine, RuleCheckbox, RuleNumberField } from './alert-fields.tsx';

/** The "Alertes" card of /account/mybot: which rules, after how long (the channels: ChannelsCard). */
export function AlertsCard() {
  const saved = useQuery(alertPreferencesQuery);
  return saved.data ? <AlertsForm preferences={saved.data} /> : null;
}

function AlertsForm({ preferences }: { preferences: AlertPreferences }) {
  const queryClient = useQueryClient();
  const form = useForm<AlertPreferences>({
    resolver: schemaResolver(alertPreferencesSchema),
    values: preferences,
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      const next = await saveAlertPreferences(values);
      queryClient.setQueryData(notificationKeys.preferences, next);
      notifySuccess('Alertes enregistrées.');
    } catch {
      // shown by the API client
    }
  });

  return (
    <SectionCard
      id="alertes"
      title="Alertes"
      subheader="Soyez prévenu quand votre bot s’arrête ou qu’un compte de jeu est en erreur (puis quand tout repart), avant la fin de votre offre et à chaque paiement."
    >
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Alertes du bot">
        <FormGroup>
          <FormLabel component="legend">Me prévenir quand</FormLabel>
          <RuleCheckbox
            control={form.control}
            name="botOffline"
            label="le bot est hors ligne depuis plus de…"
          />
          <RuleNumberField
            control={form.control}
            name="offlineMinutes"
            label="Minutes hors ligne"
            min={OFFLINE_MINUTES_MIN}
            max={OFFLINE_MINUTES_MAX}
          />
          <RuleCheckbox control={form.control} name="accountError" label="un compte de jeu passe en erreur" />
          <RuleCheckbox
            control={form.control}
            name="packageExpiring"
            label="mon offre se termine dans moins de 3 jours"
          />
          <RuleCheckbox control={form.control} name="payments" label="un paiement réussit ou échoue" />
        </FormGroup>
        <Typography variant="body2" color="text.secondary" data-testid="alerts-quiet-period">
          Une alerte par incident, puis un message quand tout repart. Si le même problème revient dans le
          quart d’heure qui suit le précédent, l’alerte attend la fin de ce quart d’heure et n’est pas envoyée
          s’il s’est réglé entre-temps : un bot qui se coupe et revient sans cesse vous prévient au plus une
          fois par quart d’heure. Les durées indiquées sont mesurées depuis l’événement lui-même (la
          déconnexion, le passage en erreur), pas depuis l’envoi du message.
        </Typography>
        <ChannelsLine channels={preferences.channels} />
        <div>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
            Enregistrer les alertes
          </Button>
        </div>
      </Stack>
    </SectionCard>
  );
}
