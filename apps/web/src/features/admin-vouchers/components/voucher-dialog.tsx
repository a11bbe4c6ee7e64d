import {
  type Package,
  VOUCHER_KIND_LABELS,
  VOUCHER_KINDS,
  type Voucher,
  type VoucherInput,
  voucherInput,
  voucherKindSchema,
} from '@bot/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormSwitch } from '../../../components/form-switch.tsx';
import { textFieldProps, withHint } from '../../../lib/form-field.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';

const pad = (n: number) => String(n).padStart(2, '0');
/** ISO instant -> the value of a datetime-local input, in the browser's time zone. */
function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** What the inputs hold: text as typed (the reduction in euros, dates in local time). */
const voucherFieldsSchema = z.object({
  code: z.string(),
  kind: voucherKindSchema,
  percentOff: z.string(),
  amountOff: z.string(),
  packageId: z.string(),
  maxRedemptions: z.string(),
  perCustomerLimit: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  note: z.string(),
  active: z.boolean(),
});
type VoucherFields = z.infer<typeof voucherFieldsSchema>;

const numberOrNull = (value: string) => (value.trim() ? Number(value.replace(',', '.')) : null);
const isoOrNull = (local: string) => (local ? new Date(local).toISOString() : null);

function toVoucherInput(fields: VoucherFields): VoucherInput {
  const euros = numberOrNull(fields.amountOff);
  return {
    ...(fields.code.trim() ? { code: fields.code.trim() } : {}),
    kind: fields.kind,
    percentOff: fields.kind === 'percent' ? numberOrNull(fields.percentOff) : null,
    amountOffCents: fields.kind === 'fixed' && euros !== null ? Math.round(euros * 100) : null,
    packageId: fields.packageId || null,
    maxRedemptions: numberOrNull(fields.maxRedemptions),
    perCustomerLimit: numberOrNull(fields.perCustomerLimit),
    startsAt: isoOrNull(fields.startsAt),
    endsAt: isoOrNull(fields.endsAt),
    active: fields.active,
    note: fields.note.trim(),
  };
}

/** The contracts' voucher rules, their messages put on the input that holds the value. */
const voucherFormSchema = voucherFieldsSchema.superRefine((fields, context) => {
  const checked = voucherInput.safeParse(toVoucherInput(fields));
  if (checked.success) return;
  for (const issue of checked.error.issues) {
    const field = issue.path[0] === 'amountOffCents' ? 'amountOff' : String(issue.path[0]);
    context.addIssue({ code: 'custom', path: [field], message: issue.message });
  }
});

function fieldsOf(initial: Voucher | undefined): VoucherFields {
  return {
    code: initial?.code ?? '',
    kind: initial?.kind ?? 'percent',
    percentOff: String(initial?.percentOff ?? 10),
    amountOff: initial?.amountOffCents ? (initial.amountOffCents / 100).toFixed(2) : '5.00',
    packageId: initial?.packageId ?? '',
    maxRedemptions: String(initial?.maxRedemptions ?? ''),
    perCustomerLimit: initial ? String(initial.perCustomerLimit ?? '') : '1',
    startsAt: toLocalInput(initial?.startsAt),
    endsAt: toLocalInput(initial?.endsAt),
    note: initial?.note ?? '',
    active: initial?.active ?? true,
  };
}

/** Create a voucher (typed or generated code, kind, value, restriction, limits, dates) or edit its terms. */
export function VoucherDialog({
  initial,
  packages,
  onClose,
  onSubmit,
  isSaving,
}: {
  /** Editing: code and kind stay as given to customers. */
  initial?: Voucher;
  packages: Package[];
  onClose: () => void;
  onSubmit: (input: VoucherInput) => void;
  isSaving: boolean;
}) {
  const form = useForm<VoucherFields>({
    resolver: schemaResolver(voucherFormSchema),
    defaultValues: fieldsOf(initial),
  });
  const { errors } = form.formState;
  const kind = form.watch('kind');

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{initial ? `Modifier ${initial.code}` : 'Nouveau bon'}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="voucher-form"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={form.handleSubmit((fields) => onSubmit(toVoucherInput(fields)))}
          noValidate
        >
          <Controller
            control={form.control}
            name="code"
            render={({ field }) => (
              <TextField
                {...field}
                onChange={(event) => field.onChange(event.target.value.toUpperCase())}
                label="Code (vide : généré, 16 caractères)"
                disabled={Boolean(initial)}
                error={errors.code !== undefined}
                helperText={errors.code?.message}
                slotProps={{ htmlInput: { maxLength: 64, autoComplete: 'off' } }}
              />
            )}
          />
          <Controller
            control={form.control}
            name="kind"
            render={({ field }) => (
              <TextField {...field} select label="Type" disabled={Boolean(initial)}>
                {VOUCHER_KINDS.map((value) => (
                  <MenuItem key={value} value={value}>
                    {VOUCHER_KIND_LABELS[value]}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          {kind === 'percent' ? (
            <TextField {...textFieldProps(form, 'percentOff')} label="Réduction (%)" type="number" />
          ) : null}
          {kind === 'fixed' ? (
            <TextField
              {...textFieldProps(form, 'amountOff')}
              label="Réduction (€)"
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
          ) : null}
          <Controller
            control={form.control}
            name="packageId"
            render={({ field }) => (
              <TextField
                {...field}
                select
                label={kind === 'gift' ? 'Offre offerte' : 'Limité à l’offre (facultatif)'}
                error={errors.packageId !== undefined}
                helperText={errors.packageId?.message}
              >
                <MenuItem value="">{kind === 'gift' ? '—' : 'Toutes les offres'}</MenuItem>
                {packages.map((pkg) => (
                  <MenuItem key={pkg.id} value={pkg.id}>
                    {pkg.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {/* Short labels (the long ones were cut off); "empty means no limit" as the hint below. */}
            <TextField
              {...withHint(textFieldProps(form, 'maxRedemptions'), 'Vide : illimité')}
              label="Utilisations max"
              type="number"
              fullWidth
            />
            <TextField
              {...withHint(textFieldProps(form, 'perCustomerLimit'), 'Vide : illimité')}
              label="Utilisations par client"
              type="number"
              fullWidth
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              {...textFieldProps(form, 'startsAt')}
              label="Début"
              type="datetime-local"
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
            <TextField
              {...textFieldProps(form, 'endsAt')}
              label="Fin"
              type="datetime-local"
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
          </Stack>
          <TextField {...textFieldProps(form, 'note')} label="Note interne" />
          <FormSwitch control={form.control} name="active" label="Actif" />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Annuler</Button>
        <Button type="submit" form="voucher-form" variant="contained" disabled={isSaving}>
          {initial ? 'Enregistrer' : 'Créer'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
