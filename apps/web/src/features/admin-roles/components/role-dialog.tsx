import { PERMISSIONS, type Permission, permissionLabel, type Role, roleInput } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { notifySuccess } from '../../../lib/notify.ts';
import { createRole, roleQuery, updateRole } from '../api/roles.ts';

/** Creates a role, or edits one (name, description, permissions) and lists its members. */
export function RoleDialog({
  role,
  open,
  onClose,
  onSaved,
}: {
  role: Role | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isSaving, setSaving] = useState(false);
  const detail = useQuery({ ...roleQuery(role?.id ?? ''), enabled: open && Boolean(role) });

  useEffect(() => {
    if (!open) return;
    setName(role?.name ?? '');
    setDescription(role?.description ?? '');
    setPermissions(role?.permissions ?? []);
    setErrors({});
  }, [open, role]);

  const toggle = (permission: Permission, isOn: boolean) =>
    setPermissions((current) => (isOn ? [...current, permission] : current.filter((p) => p !== permission)));

  const save = async () => {
    const parsed = roleInput.safeParse({ name, description, permissions });
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])),
      );
      return;
    }
    setSaving(true);
    try {
      if (role) await updateRole(role.id, parsed.data);
      else await createRole(parsed.data);
      notifySuccess(role ? 'Rôle enregistré.' : 'Rôle créé.');
      onSaved();
    } catch {
      // shown by the API client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{role ? `Rôle « ${role.name} »` : 'Nouveau rôle'}</DialogTitle>
      <DialogContent>
        <TextField
          name="name"
          label="Nom"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={Boolean(errors.name)}
          helperText={errors.name}
          autoFocus
        />
        <TextField
          name="description"
          label="Description"
          value={description}
          multiline
          minRows={2}
          onChange={(event) => setDescription(event.target.value)}
          error={Boolean(errors.description)}
          helperText={errors.description}
        />
        <FormLabel component="legend" sx={{ mt: 2, mb: 1 }}>
          Permissions
        </FormLabel>
        <FormGroup sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          {PERMISSIONS.map((permission) => (
            <FormControlLabel
              key={permission}
              control={
                <Checkbox
                  name={permission}
                  checked={permissions.includes(permission)}
                  onChange={(event) => toggle(permission, event.target.checked)}
                />
              }
              label={
                <Box>
                  <Typography variant="body2">{permissionLabel(permission)}</Typography>
                  <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                    {permission}
                  </Typography>
                </Box>
              }
            />
          ))}
        </FormGroup>
        {role ? (
          <Box sx={{ mt: 2 }}>
            <FormLabel component="legend" sx={{ mb: 1 }}>
              Membres ({detail.data?.memberCount ?? role.memberCount})
            </FormLabel>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {(detail.data?.members ?? []).map((member) => (
                <Chip
                  key={member.id}
                  size="small"
                  label={member.username}
                  component={RouterLink}
                  to={`/admin/users/${member.id}`}
                  clickable
                />
              ))}
              {detail.data && detail.data.members.length === 0 ? (
                <Typography color="text.secondary">Aucun utilisateur n'a ce rôle.</Typography>
              ) : null}
            </Box>
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Annuler</Button>
        <Button variant="contained" onClick={save} disabled={isSaving}>
          {role ? 'Enregistrer' : 'Créer le rôle'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
