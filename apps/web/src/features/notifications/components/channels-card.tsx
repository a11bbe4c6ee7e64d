import {
  type AlertChannel,
  type AlertPreferences,
  alertPreferencesSchema,
  type ChannelFailure,
  isDiscordWebhookUrl,
  REMINDER_HOURS,
  REMINDER_LABELS,
} from '@bot/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { formatDateTime } from '../../../components/admin-table/index.ts';
import { SectionCard } from '../../../components/section-card.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';
import {
  alertPreferencesQuery,
  channelHealthQuery,
  notificationKeys,
  saveAlertPreferences,
  sendAlertTest,
} from '../api/notifications.ts';
import { RuleCheckbox } from './alert-fields.tsx';

const CHANNELS = [
  {
    channel: 'inApp',
    name: 'channels.inApp',
    label: 'Dans l’application (cloche)',
    where: 'dans l’application',
  },
  { channel: 'email', name: 'channels.email', label: 'Par e-mail', where: 'par e-mail' },
  { channel: 'discord', name: 'channels.discord', label: 'Sur Discord (webhook)', where: 'sur Discord' },
] as const;

const SENT: Record<AlertChannel, string> = {
  inApp: 'Message de test ajouté à vos notifications.',
  email: 'Message de test envoyé à votre adresse e-mail.',
  discord: 'Message de test envoyé sur votre salon Discord.',
};

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

const FAILING_NAMES = { email: 'L’e-mail', discord: 'Discord' } as const;

/** A channel that keeps failing (decision 907): since when and the last error, until a message goes through. */
function ChannelFailureNotice({
  channel,
  failure,
}: {
  channel: 'email' | 'discord';
  failure: ChannelFailure;
}) {
  if (!failure) return null;
  return (
    <Alert severity="error" data-testid={`channel-failing-${channel}`}>
      {FAILING_NAMES[channel]} est en échec depuis le {formatDateTime(failure.since)} : {failure.lastError}.
      {channel === 'discord'
        ? ' Collez un nouveau webhook ou choisissez un autre canal.'
        : ' Vérifiez votre adresse ou choisissez un autre canal.'}
    </Alert>
  );
}

function ChannelsForm({ preferences }: { preferences: AlertPreferences }) {
  const queryClient = useQueryClient();
  const health = useQuery(channelHealthQuery).data;
  const form = useForm<AlertPreferences>({
    resolver: schemaResolver(channelsFormSchema),
    values: preferences,
  });
  const webhookError = form.formState.errors.discordWebhookUrl?.message;
  const test = useMutation({
    mutationFn: sendAlertTest,
    onSuccess: (_, channel) => {
      notifySuccess(SENT[channel]);
      if (channel === 'inApp') void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      const next = await saveAlertPreferences({
        ...values,
        discordWebhookUrl: values.discordWebhookUrl?.trim() || null,
      });
      queryClient.setQueryData(notificationKeys.preferences, next);
      void queryClient.invalidateQueries({ queryKey: notificationKeys.health });
      notifySuccess('Canaux enregistrés.');
    } catch {
      // shown by the API client
    }
  });

  return (
    <SectionCard
      id="canaux"
      title="Canaux des alertes"
      subheader="Où vous prévenir : dans l’application, par e-mail, sur un salon Discord ; rappels et résumé quotidien."
    >
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Canaux des alertes">
        <FormGroup>
          <FormLabel component="legend">Par</FormLabel>
          {CHANNELS.map((channel) => (
            <Box
              key={channel.name}
              // The test button in a column of its own: aligned on every row, the label wrapping beside it.
              sx={{
                display: 'grid',
                gridTemplateColumns: { xs: '1fr auto', sm: '18rem auto' },
                justifyContent: 'start',
                alignItems: 'center',
                columnGap: 1,
              }}
            >
              <RuleCheckbox control={form.control} name={channel.name} label={channel.label} />
              <Button
                size="small"
                aria-label={`Envoyer un test ${channel.where}`}
                disabled={test.isPending || (channel.channel === 'discord' && !preferences.discordWebhookUrl)}
                onClick={() => test.mutate(channel.channel)}
              >
                Envoyer un test
              </Button>
            </Box>
          ))}
        </FormGroup>
        <ChannelFailureNotice channel="email" failure={health?.email ?? null} />
        <ChannelFailureNotice channel="discord" failure={health?.discord ?? null} />
        <Typography variant="body2" color="text.secondary">
          Le test part vers ce qui est enregistré (votre adresse e-mail, le webhook enregistré), même si le
          canal n’est pas coché.
        </Typography>
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
          <RuleCheckbox
            control={form.control}
            name="emailDigest"
            label="E-mail : un résumé par jour au lieu d’un e-mail par alerte"
          />
        </div>
        <Typography variant="body2" color="text.secondary">
          Le résumé part peu après minuit (heure de Paris) avec les alertes et rétablissements de la veille ;
          la cloche et Discord restent immédiats.
        </Typography>
        <TextField
          {...form.register('reminderHours', { valueAsNumber: true })}
          select
          slotProps={{ select: { native: true } }}
          label="Rappel tant qu’un incident dure"
          size="small"
          sx={{ maxWidth: '20rem' }}
        >
          {REMINDER_HOURS.map((hours) => (
            <option key={hours} value={hours}>
              {REMINDER_LABELS[hours]}
            </option>
          ))}
        </TextField>
        <div>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
            Enregistrer les canaux
          </Button>
        </div>
      </Stack>
    </SectionCard>
  );
}
