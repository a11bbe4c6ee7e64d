import { BOT_PERMISSIONS, type BotPermission, type Package, permissionLabel } from '@bot/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState } from 'react';

export interface PackageFormValues {
  name: string;
  description: string;
  priceCents: number;
  durationDays: number;
  grants: BotPermission[];
  whitelistSlots: number;
  active: boolean;
}

/** Create or edit a package; the price is typed in euros and sent in cents. */
export function PackageDialog({
  initial,
  onClose,
  onSubmit,
  isSaving,
}: {
  initial?: Package;
  onClose: () => void;
  onSubmit: (values: PackageFormValues) => void;
  isSaving: boolean;
}) {
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [price, setPrice] = useState(initial ? (initial.priceCents / 100).toFixed(2) : '9.99');
  const [durationDays, setDurationDays] = useState(String(initial?.durationDays ?? 30));
  // Both by default: SPEC.md opens « Mon bot » only with both permissions (docs/decisions/201).
  const [grants, setGrants] = useState<BotPermission[]>(
    initial?.grants ?? ['can_useGathering', 'can_useTreasure'],
  );
  const [whitelistSlots, setWhitelistSlots] = useState(String(initial?.whitelistSlots ?? 1));
  const [active, setActive] = useState(initial?.active ?? true);
  const priceCents = Math.round(Number(price.replace(',', '.')) * 100);
  const isValid =
    name.trim().length >= 2 &&
    Number.isFinite(priceCents) &&
    priceCents >= 0 &&
    Number.isInteger(Number(durationDays)) &&
    Number(durationDays) >= 1 &&
    Number.isInteger(Number(whitelistSlots)) &&
    Number(whitelistSlots) >= 0;

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{initial ? `Modifier « ${initial.name} »` : 'Nouvelle offre'}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="package-form"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            if (!isValid) return;
            onSubmit({
              name: name.trim(),
              description: description.trim(),
              priceCents,
              durationDays: Number(durationDays),
              grants,
              whitelistSlots: Number(whitelistSlots),
              active,
            });
          }}
        >
          <TextField
            label="Nom"
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
          />
          <TextField
            label="Description"
            name="description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            multiline
            minRows={2}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label="Prix (€)"
              name="price"
              value={price}
              onChange={(e) => setPrice(e.target.value)}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
              required
            />
            <TextField
              label="Durée (jours)"
              name="durationDays"
              type="number"
              value={durationDays}
              onChange={(e) => setDurationDays(e.target.value)}
              required
            />
            <TextField
              label="Places de liste blanche"
              name="whitelistSlots"
              type="number"
              value={whitelistSlots}
              onChange={(e) => setWhitelistSlots(e.target.value)}
              required
            />
          </Stack>
          <div>
            <FormLabel>Permissions du bot données</FormLabel>
            <FormGroup row>
              {BOT_PERMISSIONS.map((permission) => (
                <FormControlLabel
                  key={permission}
                  label={permissionLabel(permission)}
                  control={
                    <Checkbox
                      name={permission}
                      checked={grants.includes(permission)}
                      onChange={(e) =>
                        setGrants((list) =>
                          e.target.checked
                            ? [...list, permission]
                            : list.filter((item) => item !== permission),
                        )
                      }
                    />
                  }
                />
              ))}
            </FormGroup>
            {grants.length === 1 ? (
              <Alert severity="warning" data-testid="package-one-grant-warning" sx={{ mt: 1 }}>
                Avec une seule de ces permissions, l’acheteur pourra faire tourner son bot mais pas le suivre
                dans « Mon bot », qui demande les deux.
              </Alert>
            ) : null}
          </div>
          {initial?.retiredAt ? null : (
            <FormControlLabel
              label="En vente"
              control={
                <Switch name="active" checked={active} onChange={(e) => setActive(e.target.checked)} />
              }
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Annuler</Button>
        <Button type="submit" form="package-form" variant="contained" disabled={!isValid || isSaving}>
          Enregistrer
        </Button>
      </DialogActions>
    </Dialog>
  );
}
