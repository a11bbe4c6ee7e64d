import {
  BOT_PERMISSIONS,
  type BotPermission,
  type Package,
  packageInput,
  permissionLabel,
} from '@bot/contracts';
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
import TextField from '@mui/material/TextField';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormSwitch } from '../../../components/form-switch.tsx';
import { textFieldProps } from '../../../lib/form-field.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';

export interface PackageFormValues {
  name: string;
  description: string;
  priceCents: number;
  durationDays: number;
  grants: BotPermission[];
  whitelistSlots: number;
  active: boolean;
}

/** The dialog's fields: the contracts' rules, with the price typed in euros ("9,99"). */
const packageFormSchema = z.object({
  name: packageInput.shape.name,
  description: z.string().trim().max(2000),
  price: z
    .string()
    .trim()
    .regex(/^\d{1,6}([.,]\d{1,2})?$/, 'Prix en euros, par exemple 9,99.'),
  durationDays: z
    .number({ error: 'Entre 1 et 3650 jours.' })
    .int()
    .min(1, 'Entre 1 et 3650 jours.')
    .max(3650, 'Entre 1 et 3650 jours.'),
  grants: packageInput.shape.grants,
  whitelistSlots: z
    .number({ error: 'Entre 0 et 1000 places.' })
    .int()
    .min(0, 'Entre 0 et 1000 places.')
    .max(1000, 'Entre 0 et 1000 places.'),
  active: z.boolean(),
});
type PackageFields = z.infer<typeof packageFormSchema>;

function fieldsOf(initial: Package | undefined): PackageFields {
  return {
    name: initial?.name ?? '',
    description: initial?.description ?? '',
    price: initial ? (initial.priceCents / 100).toFixed(2).replace('.', ',') : '9,99',
    durationDays: initial?.durationDays ?? 30,
    // Both by default: the specification opens « Mon bot » only with both permissions (docs/decisions/201).
    grants: initial?.grants ?? ['can_useGathering', 'can_useTreasure'],
    whitelistSlots: initial?.whitelistSlots ?? 1,
    active: initial?.active ?? true,
  };
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
  const form = useForm<PackageFields>({
    resolver: schemaResolver(packageFormSchema),
    defaultValues: fieldsOf(initial),
  });
  const grants = form.watch('grants');
  const submit = form.handleSubmit(({ price, ...values }) =>
    onSubmit({ ...values, priceCents: Math.round(Number(price.replace(',', '.')) * 100) }),
  );

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{initial ? `Modifier « ${initial.name} »` : 'Nouvelle offre'}</DialogTitle>
      <DialogContent>
        <Stack component="form" id="package-form" spacing={2} sx={{ pt: 1 }} onSubmit={submit} noValidate>
          <TextField {...textFieldProps(form, 'name')} label="Nom" required />
          <TextField {...textFieldProps(form, 'description')} label="Description" multiline minRows={2} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              {...textFieldProps(form, 'price')}
              label="Prix (€)"
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
              required
            />
            <TextField
              {...textFieldProps(form, 'durationDays', { valueAsNumber: true })}
              label="Durée (jours)"
              type="number"
              required
            />
            <TextField
              {...textFieldProps(form, 'whitelistSlots', { valueAsNumber: true })}
              label="Places de liste blanche"
              type="number"
              required
            />
          </Stack>
          <div>
            <FormLabel>Permissions du bot données</FormLabel>
            <Controller
              control={form.control}
              name="grants"
              render={({ field }) => (
                <FormGroup row>
                  {BOT_PERMISSIONS.map((permission) => (
                    <FormControlLabel
                      key={permission}
                      label={permissionLabel(permission)}
                      control={
                        <Checkbox
                          name={permission}
                          checked={field.value.includes(permission)}
                          onChange={(event) =>
                            field.onChange(
                              event.target.checked
                                ? [...field.value, permission]
                                : field.value.filter((item) => item !== permission),
                            )
                          }
                        />
                      }
                    />
                  ))}
                </FormGroup>
              )}
            />
            {grants.length === 1 ? (
              <Alert severity="warning" data-testid="package-one-grant-warning" sx={{ mt: 1 }}>
                Avec une seule de ces permissions, l’acheteur pourra faire tourner son bot mais pas le suivre
                dans « Mon bot », qui demande les deux.
              </Alert>
            ) : null}
          </div>
          {initial?.retiredAt ? null : <FormSwitch control={form.control} name="active" label="En vente" />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Annuler</Button>
        <Button type="submit" form="package-form" variant="contained" disabled={isSaving}>
          Enregistrer
        </Button>
      </DialogActions>
    </Dialog>
  );
}
