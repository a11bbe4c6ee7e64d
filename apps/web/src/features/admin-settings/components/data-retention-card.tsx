import { RETENTION_SETTINGS, SETTINGS_LABELS, type SiteSettings, siteSettingsSchema } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { adminTableKey } from '../../../components/admin-table/index.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';
import { saveSettings, settingsKeys } from '../api/settings.ts';

type RetentionKey = (typeof RETENTION_SETTINGS)[number];
type RetentionValues = Pick<SiteSettings, RetentionKey>;

const retentionSchema = siteSettingsSchema.pick(
  Object.fromEntries(RETENTION_SETTINGS.map((key) => [key, true])) as Record<RetentionKey, true>,
);

/** What each duration keeps whatever its age, or what reads it: staff see what a shorter one costs. */
export const RETENTION_HELP: Record<RetentionKey, string> = {
  botEventRetentionDays: 'La chronologie en montre 30 jours ; la dernière connexion d’un PC est gardée.',
  botSessionRetentionDays:
    'Comptés depuis la fin de la session ; une session ouverte n’est jamais supprimée.',
  botCommandRetentionDays: 'Comptés depuis la fin de la commande ; une commande en cours est gardée.',
  botHistoryRetentionDays: 'Le tableau de bord en lit jusqu’à 90 jours ; c’est la table la plus lourde.',
  botLogRetentionDays: 'Les lignes reçues pendant la lecture du journal, de 1 à 90 jours.',
  notificationRetentionDays: 'Les notifications plus anciennes sont supprimées, lues ou non.',
  mailRetentionDays: 'Comptés depuis l’envoi ou l’abandon ; un e-mail en attente est gardé.',
  discordRetentionDays: 'Comptés depuis l’envoi ou l’abandon ; un message en attente est gardé.',
  paymentWebhookRetentionDays:
    'Au moins 30 jours ; l’événement d’une commande en attente et le dernier appel sont gardés.',
  versionSampleRetentionDays: 'La page des versions en montre 7 jours.',
  userTokenRetentionDays: 'Comptés depuis l’usage ou l’expiration ; un lien encore valable est gardé.',
  auditRetentionDays: 'Au moins 365 jours (un an).',
};

/** A field's label inside the card, whose title already says « Conservation » (the history keeps the whole label). */
export function retentionLabel(key: RetentionKey): string {
  const rest = SETTINGS_LABELS[key].replace(/^Conservation (des |du |de l’|de la |de )/, '');
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** The « Conservation des données » card: how long each table that only grows keeps its rows. */
export function DataRetentionCard({ settings }: { settings: SiteSettings }) {
  const queryClient = useQueryClient();
  const values = Object.fromEntries(RETENTION_SETTINGS.map((key) => [key, settings[key]])) as RetentionValues;
  const form = useForm<RetentionValues>({ resolver: schemaResolver(retentionSchema), values });
  const { errors, isDirty, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (patch) => {
    try {
      const saved = await saveSettings(patch);
      queryClient.setQueryData(settingsKeys.all, saved);
      notifySuccess('Durées de conservation enregistrées. La prochaine purge les applique.');
      void queryClient.invalidateQueries({ queryKey: adminTableKey('/admin/settings/history') });
    } catch {
      // shown by the API client
    }
  });

  return (
    <Card
      variant="outlined"
      component="form"
      onSubmit={submit}
      noValidate
      aria-label="Conservation des données"
      sx={{ mt: 2 }}
    >
      <CardHeader title="Conservation des données" slotProps={{ title: { variant: 'h6' } }} />
      <CardContent sx={{ pt: 0 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Les lignes plus anciennes sont supprimées par lots tous les quarts d’heure ; ce qui sert encore est
          gardé quel que soit son âge.
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          {RETENTION_SETTINGS.map((key) => (
            <TextField
              key={key}
              {...form.register(key, { valueAsNumber: true })}
              type="number"
              label={retentionLabel(key)}
              error={Boolean(errors[key])}
              helperText={errors[key]?.message ?? RETENTION_HELP[key]}
            />
          ))}
        </Box>
        <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
          <Button type="submit" variant="contained" disabled={!isDirty || isSubmitting}>
            Enregistrer les durées
          </Button>
          <Button disabled={!isDirty || isSubmitting} onClick={() => form.reset(values)}>
            Annuler
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
