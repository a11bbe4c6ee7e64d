import {
  type Package,
  VOUCHER_KIND_LABELS,
  VOUCHER_KINDS,
  type Voucher,
  type VoucherInput,
  type VoucherKind,
  voucherProblems,
} from '@bot/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState } from 'react';

const toIso = (local: string) => (local ? new Date(local).toISOString() : null);
const intOrNull = (value: string) => (value.trim() ? Number(value) : null);
const pad = (n: number) => String(n).padStart(2, '0');
/** ISO instant -> the value of a datetime-local input, in the browser's time zone. */
function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
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
  const [code, setCode] = useState(initial?.code ?? '');
  const [kind, setKind] = useState<VoucherKind>(initial?.kind ?? 'percent');
  const [percentOff, setPercentOff] = useState(String(initial?.percentOff ?? 10));
  const [amountOff, setAmountOff] = useState(
    initial?.amountOffCents ? (initial.amountOffCents / 100).toFixed(2) : '5.00',
  );
  const [packageId, setPackageId] = useState(initial?.packageId ?? '');
  const [maxRedemptions, setMaxRedemptions] = useState(initial ? String(initial.maxRedemptions ?? '') : '');
  const [perCustomerLimit, setPerCustomerLimit] = useState(
    initial ? String(initial.perCustomerLimit ?? '') : '1',
  );
  const [startsAt, setStartsAt] = useState(toLocalInput(initial?.startsAt));
  const [endsAt, setEndsAt] = useState(toLocalInput(initial?.endsAt));
  const [note, setNote] = useState(initial?.note ?? '');
  const [active, setActive] = useState(initial?.active ?? true);

  const input: VoucherInput = {
    ...(code.trim() ? { code: code.trim() } : {}),
    kind,
    percentOff: kind === 'percent' ? Number(percentOff) : null,
    amountOffCents: kind === 'fixed' ? Math.round(Number(amountOff.replace(',', '.')) * 100) : null,
    packageId: packageId || null,
    maxRedemptions: intOrNull(maxRedemptions),
    perCustomerLimit: intOrNull(perCustomerLimit),
    startsAt: toIso(startsAt),
    endsAt: toIso(endsAt),
    active,
    note: note.trim(),
  };
  const problems = voucherProblems({
    ...input,
    startsAt: input.startsAt ?? null,
    endsAt: input.endsAt ?? null,
  });
  const problemOf = (path: string) => problems.find((problem) => problem.path === path)?.message;

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{initial ? `Modifier ${initial.code}` : 'Nouveau bon'}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="voucher-form"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            if (problems.length === 0) onSubmit(input);
          }}
        >
          <TextField
            label="Code (vide : généré, 16 caractères)"
            name="code"
            value={code}
            onChange={(e) => setCode(e.target.value.toUpperCase())}
            disabled={Boolean(initial)}
            slotProps={{ htmlInput: { maxLength: 64, autoComplete: 'off' } }}
          />
          <TextField
            select
            label="Type"
            name="kind"
            value={kind}
            disabled={Boolean(initial)}
            onChange={(e) => setKind(e.target.value as VoucherKind)}
          >
            {VOUCHER_KINDS.map((value) => (
              <MenuItem key={value} value={value}>
                {VOUCHER_KIND_LABELS[value]}
              </MenuItem>
            ))}
          </TextField>
          {kind === 'percent' ? (
            <TextField
              label="Réduction (%)"
              name="percentOff"
              type="number"
              value={percentOff}
              onChange={(e) => setPercentOff(e.target.value)}
              error={Boolean(problemOf('percentOff'))}
              helperText={problemOf('percentOff')}
            />
          ) : null}
          {kind === 'fixed' ? (
            <TextField
              label="Réduction (€)"
              name="amountOff"
              value={amountOff}
              onChange={(e) => setAmountOff(e.target.value)}
              error={Boolean(problemOf('amountOffCents'))}
              helperText={problemOf('amountOffCents')}
            />
          ) : null}
          <TextField
            select
            label={kind === 'gift' ? 'Offre offerte' : 'Limité à l’offre (facultatif)'}
            name="packageId"
            value={packageId}
            onChange={(e) => setPackageId(e.target.value)}
            error={Boolean(problemOf('packageId'))}
            helperText={problemOf('packageId')}
          >
            <MenuItem value="">{kind === 'gift' ? '—' : 'Toutes les offres'}</MenuItem>
            {packages.map((pkg) => (
              <MenuItem key={pkg.id} value={pkg.id}>
                {pkg.name}
              </MenuItem>
            ))}
          </TextField>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label="Utilisations max (vide : illimité)"
              name="maxRedemptions"
              type="number"
              value={maxRedemptions}
              onChange={(e) => setMaxRedemptions(e.target.value)}
              fullWidth
            />
            <TextField
              label="Par client (vide : illimité)"
              name="perCustomerLimit"
              type="number"
              value={perCustomerLimit}
              onChange={(e) => setPerCustomerLimit(e.target.value)}
              fullWidth
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label="Début"
              name="startsAt"
              type="datetime-local"
              value={startsAt}
              onChange={(e) => setStartsAt(e.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
            <TextField
              label="Fin"
              name="endsAt"
              type="datetime-local"
              value={endsAt}
              onChange={(e) => setEndsAt(e.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
              error={Boolean(problemOf('endsAt'))}
              helperText={problemOf('endsAt')}
              fullWidth
            />
          </Stack>
          <TextField
            label="Note interne"
            name="note"
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          <FormControlLabel
            label="Actif"
            control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Annuler</Button>
        <Button
          type="submit"
          form="voucher-form"
          variant="contained"
          disabled={problems.length > 0 || isSaving}
        >
          {initial ? 'Enregistrer' : 'Créer'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
