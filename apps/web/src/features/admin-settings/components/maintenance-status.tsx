import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { LIVE_EVENTS } from '../../../lib/live-events.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { usePublicSettings } from '../../settings/index.ts';
import { saveSettings, settingsKeys } from '../api/settings.ts';

/**
 * "Maintenance active" on every admin page while it is on, with the way out in one click for staff
 * who may change the settings (others are told who can). Replaces, in the admin area, the banner
 * customers see (docs/decisions/106).
 */
export function MaintenanceStatus() {
  const queryClient = useQueryClient();
  const isOn = usePublicSettings((state) => state.settings?.maintenanceMode === true);
  const canChange = useAuthStore(
    (state) =>
      state.user?.Policy.IsAdministrator === true || state.permissions.includes('can_manageSettings'),
  );
  const [isLeaving, setIsLeaving] = useState(false);
  if (!isOn) return null;

  const leave = async () => {
    setIsLeaving(true);
    try {
      const saved = await saveSettings({ maintenanceMode: false });
      queryClient.setQueryData(settingsKeys.all, saved);
      window.dispatchEvent(new Event(LIVE_EVENTS.publicSettingsRefresh));
      notifySuccess('Maintenance terminée : le site est de nouveau ouvert à tous.');
    } catch {
      // shown by the API client
    } finally {
      setIsLeaving(false);
    }
  };

  return (
    <Alert
      severity="warning"
      variant="filled"
      data-testid="maintenance-status"
      sx={{ mb: 2, alignItems: 'center' }}
    >
      <strong>Maintenance active</strong> : seul le staff a accès au site.
      {canChange ? null : (
        <>
          {' '}
          Un membre du staff avec les{' '}
          <RouterLink to="/admin/settings" style={{ color: 'inherit' }}>
            paramètres
          </RouterLink>{' '}
          peut y mettre fin.
        </>
      )}
      {/* Right after the words, not at the far right where a toast may sit over it. */}
      {canChange ? (
        <Button
          color="inherit"
          size="small"
          variant="outlined"
          disabled={isLeaving}
          onClick={leave}
          sx={{ ml: { sm: 1 }, mt: { xs: 1, sm: 0 }, display: { xs: 'flex', sm: 'inline-flex' } }}
        >
          Quitter la maintenance
        </Button>
      ) : null}
    </Alert>
  );
}
