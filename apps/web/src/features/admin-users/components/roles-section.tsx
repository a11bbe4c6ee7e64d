import { type AdminUserDetail, permissionLabel } from '@bot/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { notifySuccess } from '../../../lib/notify.ts';
import { roleOptionsQuery, setUserRoles } from '../api/admin-users.ts';
import { Section } from './section.tsx';

type RoleOption = { id: string; name: string };

/** The user's roles (replaced as a whole) and their effective permissions. */
export function RolesSection({
  user,
  onChanged,
}: {
  user: AdminUserDetail;
  onChanged: (user?: AdminUserDetail) => void;
}) {
  const options = useQuery(roleOptionsQuery);
  const [selected, setSelected] = useState<RoleOption[]>(user.roles);
  const [isSaving, setSaving] = useState(false);
  useEffect(() => setSelected(user.roles), [user.roles]);
  const isDirty =
    selected
      .map((r) => r.id)
      .sort()
      .join() !==
    user.roles
      .map((r) => r.id)
      .sort()
      .join();

  const save = async () => {
    setSaving(true);
    try {
      const updated = await setUserRoles(
        user.id,
        selected.map((role) => role.id),
      );
      notifySuccess('Rôles enregistrés. Les permissions changent dès la prochaine requête.');
      onChanged(updated);
    } catch {
      // shown by the API client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Section title="Rôles et permissions">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap', mb: 2 }}>
        <Autocomplete
          multiple
          options={options.data ?? []}
          value={selected}
          onChange={(_event, value) => setSelected(value)}
          getOptionLabel={(option) => option.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          loading={options.isLoading}
          sx={{ minWidth: 320, flexGrow: 1 }}
          renderInput={(params) => <TextField {...params} label="Rôles" placeholder="Choisir un rôle" />}
        />
        <Button variant="contained" disabled={!isDirty || isSaving} onClick={save}>
          Enregistrer les rôles
        </Button>
      </Box>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Permissions effectives {user.isAdministrator ? '(administrateur : toutes)' : ''}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }} data-testid="effective-permissions">
        {user.permissions.length === 0 ? (
          <Typography color="text.secondary">Aucune.</Typography>
        ) : (
          user.permissions.map((name) => (
            <Chip key={name} size="small" label={permissionLabel(name)} title={name} />
          ))
        )}
      </Box>
    </Section>
  );
}
