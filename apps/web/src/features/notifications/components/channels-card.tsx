import { type AlertPreferences, alertPreferencesSchema, isDiscordWebhookUrl } from '@bot/contracts';
import Button from '@mui/material/Button';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { SectionCard } from '../../../components/section-card.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';
import { alertPreferencesQuery, notificationKeys, saveAlertPreferences } from '../api/notifications.ts';
import { RuleCheckbox } from './alert-fields.tsx';

const CHANNELS = [
  { name: 'channels.inApp', label: 'Dans l’application (cloche)' },
  { name: 'channels.email', label: 'Par e-mail' },
  { name: 'channels.discord', label: 'Sur Discord (webhook)' },
] as const;

/**
 * The contracts' schema, plus what the server answers with its own codes (DISCORD_WEBHOOK_INVALID,
 * DISCORD_WEBHOOK_REQUIRED), said before sending.
 */
const channelsFormSchema = alertPreferencesSchema.superRefine((value, context) => {
  const webhook = value.discordWebhookUrl?.trim() ?? '';
  const message =
    webhook && !isDiscordWebhookUrl(webhook)
      ? 'Adresse attendue : https://discord.com/api/webhooks/…'
      : value.channels.discord && !webhook
        ? 'Collez l’adresse du webhook Discord.'
        : null;
  if (message) context.addIssue({ code: 'custom', path: ['discordWebhookUrl'], message });
});

/**
 * The "Canaux" card of /account/notifications: where every alert of this person goes, their bot's
 * and, for staff, the fleet's. On this page so that staff without a bot reach it too.
 */
export function ChannelsCard() {
  const saved = useQuery(alertPreferencesQuery);
  return saved.data ? <ChannelsForm preferences={saved.data} /> : null;
}

function ChannelsForm({ preferences }: { preferences: AlertPreferences }) {
  const queryClient = useQueryClient();
  const form = useForm<AlertPreferences>({
    resolver: schemaResolver(channelsFormSchema),
    values: preferences,
  });
  const webhookError = form.formState.errors.discordWebhookUrl?.message;
  const submit = form.handleSubmit(async (values) => {
    try {
      const next = await saveAlertPreferences({
        ...values,
        discordWebhookUrl: values.discordWebhookUrl?.trim() || null,
      });
      queryClient.setQueryData(notificationKeys.preferences, next);
      notifySuccess('Canaux enregistrés.');
    } catch {
      // shown by the API client
    }
  });

  return (
    <SectionCard
      id="canaux"
      title="Canaux des alertes"
      subheader="Où vous prévenir : dans l’application, par e-mail, sur un salon Discord."
    >
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Canaux des alertes">
        <FormGroup>
          <FormLabel component="legend">Par</FormLabel>
          {CHANNELS.map((channel) => (
            <RuleCheckbox
              key={channel.name}
              control={form.control}
              name={channel.name}
              label={channel.label}
            />
          ))}
        </FormGroup>
        <TextField
          {...form.register('discordWebhookUrl')}
          label="Adresse du webhook Discord"
          placeholder="https://discord.com/api/webhooks/…"
          error={webhookError !== undefined}
          helperText={webhookError ?? 'Paramètres du salon Discord › Intégrations › Webhooks › Copier l’URL.'}
          autoComplete="off"
          size="small"
        />
        <div>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
            Enregistrer les canaux
          </Button>
        </div>
      </Stack>
    </SectionCard>
  );
}
