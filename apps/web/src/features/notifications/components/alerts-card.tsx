import {
  type AlertPreferences,
  isDiscordWebhookUrl,
  OFFLINE_MINUTES_MAX,
  OFFLINE_MINUTES_MIN,
} from '@bot/contracts';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { SectionCard } from '../../../components/section-card.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { alertPreferencesQuery, notificationKeys, saveAlertPreferences } from '../api/notifications.ts';

type Channel = keyof AlertPreferences['channels'];

const CHANNELS: { key: Channel; label: string }[] = [
  { key: 'inApp', label: 'Dans l’application (cloche)' },
  { key: 'email', label: 'Par e-mail' },
  { key: 'discord', label: 'Sur Discord (webhook)' },
];

/** The "Alertes" card of /account/mybot: which rules, after how long, on which channels. */
export function AlertsCard() {
  const queryClient = useQueryClient();
  const saved = useQuery(alertPreferencesQuery);
  const [draft, setDraft] = useState<AlertPreferences | null>(null);
  const [minutes, setMinutes] = useState('');
  useEffect(() => {
    if (saved.data) {
      setDraft(saved.data);
      setMinutes(String(saved.data.offlineMinutes));
    }
  }, [saved.data]);
  const save = useMutation({
    mutationFn: saveAlertPreferences,
    onSuccess: (next) => {
      queryClient.setQueryData(notificationKeys.preferences, next);
      notifySuccess('Alertes enregistrées.');
    },
  });
  if (!draft) return null;

  const webhook = draft.discordWebhookUrl?.trim() ?? '';
  const minutesNumber = Number(minutes);
  const minutesError =
    !Number.isInteger(minutesNumber) ||
    minutesNumber < OFFLINE_MINUTES_MIN ||
    minutesNumber > OFFLINE_MINUTES_MAX
      ? `Entre ${OFFLINE_MINUTES_MIN} et ${OFFLINE_MINUTES_MAX} minutes.`
      : null;
  const webhookError =
    webhook && !isDiscordWebhookUrl(webhook)
      ? 'Adresse attendue : https://discord.com/api/webhooks/…'
      : draft.channels.discord && !webhook
        ? 'Collez l’adresse du webhook Discord.'
        : null;
  const setChannel = (key: Channel, isOn: boolean) =>
    setDraft({ ...draft, channels: { ...draft.channels, [key]: isOn } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (minutesError || webhookError) return;
    save.mutate({ ...draft, offlineMinutes: minutesNumber, discordWebhookUrl: webhook || null });
  };

  return (
    <SectionCard
      id="alertes"
      title="Alertes"
      subheader="Soyez prévenu quand votre bot s’arrête ou qu’un compte de jeu est en erreur (puis quand tout repart), avant la fin de votre offre et à chaque paiement."
    >
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Alertes du bot">
        <FormGroup>
          <FormLabel component="legend">Me prévenir quand</FormLabel>
          <FormControlLabel
            control={
              <Checkbox
                name="botOffline"
                checked={draft.botOffline}
                onChange={(event) => setDraft({ ...draft, botOffline: event.target.checked })}
              />
            }
            label="le bot est hors ligne depuis plus de…"
          />
          <TextField
            name="offlineMinutes"
            label="Minutes hors ligne"
            type="number"
            size="small"
            value={minutes}
            onChange={(event) => setMinutes(event.target.value)}
            disabled={!draft.botOffline}
            error={draft.botOffline && minutesError !== null}
            helperText={draft.botOffline ? (minutesError ?? ' ') : ' '}
            slotProps={{ htmlInput: { min: OFFLINE_MINUTES_MIN, max: OFFLINE_MINUTES_MAX, step: 1 } }}
            sx={{ maxWidth: 200, ml: 4 }}
          />
          <FormControlLabel
            control={
              <Checkbox
                name="accountError"
                checked={draft.accountError}
                onChange={(event) => setDraft({ ...draft, accountError: event.target.checked })}
              />
            }
            label="un compte de jeu passe en erreur"
          />
          <FormControlLabel
            control={
              <Checkbox
                name="packageExpiring"
                checked={draft.packageExpiring}
                onChange={(event) => setDraft({ ...draft, packageExpiring: event.target.checked })}
              />
            }
            label="mon offre se termine dans moins de 3 jours"
          />
          <FormControlLabel
            control={
              <Checkbox
                name="payments"
                checked={draft.payments}
                onChange={(event) => setDraft({ ...draft, payments: event.target.checked })}
              />
            }
            label="un paiement réussit ou échoue"
          />
        </FormGroup>
        <FormGroup>
          <FormLabel component="legend">Par</FormLabel>
          {CHANNELS.map((channel) => (
            <FormControlLabel
              key={channel.key}
              control={
                <Checkbox
                  name={`channel-${channel.key}`}
                  checked={draft.channels[channel.key]}
                  onChange={(event) => setChannel(channel.key, event.target.checked)}
                />
              }
              label={channel.label}
            />
          ))}
        </FormGroup>
        <TextField
          name="discordWebhookUrl"
          label="Adresse du webhook Discord"
          placeholder="https://discord.com/api/webhooks/…"
          value={draft.discordWebhookUrl ?? ''}
          onChange={(event) => setDraft({ ...draft, discordWebhookUrl: event.target.value })}
          error={webhookError !== null}
          helperText={webhookError ?? 'Paramètres du salon Discord › Intégrations › Webhooks › Copier l’URL.'}
          autoComplete="off"
          size="small"
        />
        <div>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            Enregistrer les alertes
          </Button>
        </div>
      </Stack>
    </SectionCard>
  );
}
