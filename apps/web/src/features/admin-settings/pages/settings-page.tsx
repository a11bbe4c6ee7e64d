import {
  type AuditEntry,
  HWID_MATCH_POLICIES,
  HWID_MATCH_POLICY_LABELS,
  RETENTION_SETTINGS,
  SETTINGS_LABELS,
  type SiteSettings,
  siteSettingsSchema,
} from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { AdminTable, adminTableKey, formatDateTime } from '../../../components/admin-table/index.ts';
import { AuditDiffView, summarizeDiff } from '../../../components/audit-diff/index.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormSwitch } from '../../../components/form-switch.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { LIVE_EVENTS } from '../../../lib/live-events.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';
import { adminSettingsQuery, saveSettings, settingsKeys } from '../api/settings.ts';
import { DataRetentionCard } from '../components/data-retention-card.tsx';
import { MaintenanceWindowsCard } from '../components/maintenance-windows-card.tsx';
import { SigningKeysCard } from '../components/signing-keys-card.tsx';

const HISTORY = '/admin/settings/history';
/** Listened to by the public settings sync (features/settings); a DOM event keeps the features apart. */
const SWITCHES = ['isSnow', 'registrationOpen', 'maintenanceMode', 'staffTwoFactorRequired'] as const;

const historyColumns: GridColDef<AuditEntry>[] = [
  { field: 'at', headerName: 'Date', width: 150, renderCell: ({ row }) => formatDateTime(row.at) },
  { field: 'actor', headerName: 'Par', width: 150, renderCell: ({ row }) => row.actorUsername ?? '—' },
  {
    field: 'details',
    headerName: 'Changements',
    flex: 1,
    minWidth: 260,
    sortable: false,
    renderCell: ({ row }) => summarizeDiff(row.before, row.after),
  },
];

function SettingsForm({ settings }: { settings: SiteSettings }) {
  const queryClient = useQueryClient();
  const form = useForm<SiteSettings>({ resolver: schemaResolver(siteSettingsSchema), values: settings });
  const { errors, isDirty, isSubmitting } = form.formState;
  const error = (name: keyof SiteSettings) => errors[name]?.message;

  // Turning maintenance on cuts people off: asked first (docs/decisions/106).
  const [pending, setPending] = useState<SiteSettings | null>(null);
  const submit = form.handleSubmit((values) =>
    values.maintenanceMode && !settings.maintenanceMode ? setPending(values) : save(values),
  );
  const save = async (values: SiteSettings) => {
    setPending(null);
    try {
      // The durations belong to their own card: this form never sends them back stale.
      const saved = await saveSettings(
        Object.fromEntries(
          Object.entries(values).filter(([key]) => !(RETENTION_SETTINGS as readonly string[]).includes(key)),
        ),
      );
      queryClient.setQueryData(settingsKeys.all, saved);
      form.reset(saved);
      notifySuccess('Paramètres enregistrés. Les pages ouvertes les affichent dans les dix secondes.');
      void queryClient.invalidateQueries({ queryKey: adminTableKey(HISTORY) });
      // This tab shows the change at once (snow, banner); others follow by polling.
      window.dispatchEvent(new Event(LIVE_EVENTS.publicSettingsRefresh));
    } catch {
      // shown by the API client
    }
  };

  return (
    <Card variant="outlined" component="form" onSubmit={submit} noValidate aria-label="Paramètres du site">
      <CardHeader title="Paramètres du site" slotProps={{ title: { variant: 'h6' } }} />
      <CardContent sx={{ pt: 0 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          {SWITCHES.map((name) => (
            <FormSwitch
              key={name}
              control={form.control}
              name={name}
              label={SETTINGS_LABELS[name]}
              color={name === 'maintenanceMode' ? 'warning' : 'primary'}
            />
          ))}
        </Box>
        <TextField
          {...form.register('maintenanceMessage')}
          label={SETTINGS_LABELS.maintenanceMessage}
          helperText={
            error('maintenanceMessage') ??
            'Montré aux visiteurs pendant la maintenance (le staff garde l’accès).'
          }
          error={Boolean(error('maintenanceMessage'))}
          multiline
          minRows={2}
        />
        <TextField
          {...form.register('announcement')}
          label={SETTINGS_LABELS.announcement}
          helperText={error('announcement') ?? 'Vide : pas de bannière.'}
          error={Boolean(error('announcement'))}
          multiline
          minRows={2}
        />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr 1fr' } }}>
          <TextField
            {...form.register('hwidResetCooldownHours', { valueAsNumber: true })}
            type="number"
            label={SETTINGS_LABELS.hwidResetCooldownHours}
            error={Boolean(error('hwidResetCooldownHours'))}
            helperText={error('hwidResetCooldownHours')}
          />
          <TextField
            {...form.register('hwidResetsPerMonth', { valueAsNumber: true })}
            type="number"
            label={SETTINGS_LABELS.hwidResetsPerMonth}
            error={Boolean(error('hwidResetsPerMonth'))}
            helperText={error('hwidResetsPerMonth') ?? 'Les réinitialisations par le staff ne comptent pas.'}
          />
          <TextField
            {...form.register('hwidMatchPolicy')}
            select
            slotProps={{ select: { native: true } }}
            label={SETTINGS_LABELS.hwidMatchPolicy}
            error={Boolean(error('hwidMatchPolicy'))}
            helperText={
              error('hwidMatchPolicy') ??
              'En dessous, c’est un autre PC : il est refusé jusqu’à la déliaison.'
            }
          >
            {HWID_MATCH_POLICIES.map((policy) => (
              <option key={policy} value={policy}>
                {HWID_MATCH_POLICY_LABELS[policy]}
              </option>
            ))}
          </TextField>
          <TextField
            {...form.register('botOfflineTimeoutSeconds', { valueAsNumber: true })}
            type="number"
            label={SETTINGS_LABELS.botOfflineTimeoutSeconds}
            error={Boolean(error('botOfflineTimeoutSeconds'))}
            helperText={error('botOfflineTimeoutSeconds')}
          />
          <TextField
            {...form.register('minBotVersion')}
            label={SETTINGS_LABELS.minBotVersion}
            error={Boolean(error('minBotVersion'))}
            helperText={error('minBotVersion') ?? 'Les bots plus anciens sont refusés avec un message clair.'}
          />
          <TextField
            {...form.register('leaseLifetimeHours', { valueAsNumber: true })}
            type="number"
            label={SETTINGS_LABELS.leaseLifetimeHours}
            error={Boolean(error('leaseLifetimeHours'))}
            helperText={
              error('leaseLifetimeHours') ?? 'Un bail plus court borne plus tôt une révocation hors ligne.'
            }
          />
          <TextField
            {...form.register('leaseGraceHours', { valueAsNumber: true })}
            type="number"
            label={SETTINGS_LABELS.leaseGraceHours}
            error={Boolean(error('leaseGraceHours'))}
            helperText={
              error('leaseGraceHours') ??
              'Le bot continue hors connexion jusqu’à la fin du bail plus ce délai.'
            }
          />
          <TextField
            {...form.register('releaseRolloutPercent', { valueAsNumber: true })}
            type="number"
            label={SETTINGS_LABELS.releaseRolloutPercent}
            error={Boolean(error('releaseRolloutPercent'))}
            helperText={
              error('releaseRolloutPercent') ?? '100 : chaque nouvelle version est proposée à tous.'
            }
          />
          <TextField
            {...form.register('rolloutHaltRatio', { valueAsNumber: true })}
            type="number"
            slotProps={{ htmlInput: { step: 0.1 } }}
            label={SETTINGS_LABELS.rolloutHaltRatio}
            error={Boolean(error('rolloutHaltRatio'))}
            helperText={
              error('rolloutHaltRatio') ??
              'Fois la version précédente (comptes en erreur, reconnexions, plantages) : au-delà, le déploiement s’arrête seul.'
            }
          />
          <TextField
            {...form.register('rolloutHaltMinBots', { valueAsNumber: true })}
            type="number"
            label={SETTINGS_LABELS.rolloutHaltMinBots}
            error={Boolean(error('rolloutHaltMinBots'))}
            helperText={
              error('rolloutHaltMinBots') ??
              'En dessous, la nouvelle version n’est pas jugée (trop peu de bots).'
            }
          />
        </Box>
        <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
          <Button type="submit" variant="contained" disabled={!isDirty || isSubmitting}>
            Enregistrer
          </Button>
          <Button disabled={!isDirty || isSubmitting} onClick={() => form.reset(settings)}>
            Annuler les modifications
          </Button>
        </Box>
      </CardContent>
      <ConfirmDialog
        open={pending !== null}
        title="Activer la maintenance ?"
        confirmLabel="Activer la maintenance"
        onConfirm={() => pending && void save(pending)}
        onCancel={() => setPending(null)}
      >
        Tous les visiteurs et clients seront coupés dès maintenant : ils verront la page de maintenance au
        lieu du site, ne pourront plus se connecter, acheter ni gérer leur compte, et les appels de leurs bots
        au site seront refusés. Seul le staff garde l’accès. Vous pourrez en sortir d’un clic depuis n’importe
        quelle page de l’administration.
      </ConfirmDialog>
    </Card>
  );
}

/** /admin/settings: site settings with validation, and their history. */
export default function SettingsPage() {
  const settings = useQuery(adminSettingsQuery);
  const [open, setOpen] = useState<AuditEntry | null>(null);
  return (
    <>
      <PageHeader
        title="Paramètres"
        subtitle="Neige, inscriptions, maintenance, fenêtres de maintenance, bot, annonce et conservation des données."
      />
      {settings.data ? <SettingsForm settings={settings.data} /> : null}
      {settings.data ? <DataRetentionCard settings={settings.data} /> : null}
      <MaintenanceWindowsCard />
      <SigningKeysCard />
      <Card variant="outlined" sx={{ mt: 2 }}>
        <CardHeader title="Historique" slotProps={{ title: { variant: 'h6' } }} />
        <CardContent sx={{ pt: 0 }}>
          <AdminTable<AuditEntry>
            endpoint={HISTORY}
            label="Historique des paramètres"
            columns={historyColumns}
            hideSearch
            initialPageSize={10}
            onRowClick={setOpen}
          />
        </CardContent>
      </Card>
      <Dialog open={open !== null} onClose={() => setOpen(null)} fullWidth maxWidth="md">
        <DialogTitle>
          {open ? `Modification du ${formatDateTime(open.at)} par ${open.actorUsername ?? '—'}` : ''}
        </DialogTitle>
        <DialogContent>
          {open ? <AuditDiffView before={open.before} after={open.after} /> : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(null)}>Fermer</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
