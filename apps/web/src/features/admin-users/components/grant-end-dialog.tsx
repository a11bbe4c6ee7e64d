import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { fromLocalInput, toLocalInput } from '../../../components/admin-table/index.ts';

/** Picks a grant's end date, or none. */
export function GrantEndDialog({
  open,
  title,
  initial,
  onClose,
  onSave,
}: {
  open: boolean;
  title: string;
  initial: string | null;
  onClose: () => void;
  onSave: (expiresAt: string | null) => Promise<void>;
}) {
  const [value, setValue] = useState(toLocalInput(initial));
  const [hasNoEnd, setNoEnd] = useState(initial === null);
  const [isSaving, setSaving] = useState(false);
  useEffect(() => {
    setValue(toLocalInput(initial));
    setNoEnd(initial === null);
  }, [initial]);
  const save = async () => {
    setSaving(true);
    try {
      await onSave(hasNoEnd ? null : fromLocalInput(value));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <TextField
          type="datetime-local"
          name="expiresAt"
          label="Date de fin"
          value={value}
          disabled={hasNoEnd}
          onChange={(event) => setValue(event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ mt: 1, minWidth: 260 }}
        />
        <FormControlLabel
          sx={{ display: 'block', mt: 1 }}
          control={<Checkbox checked={hasNoEnd} onChange={(event) => setNoEnd(event.target.checked)} />}
          label="Sans date de fin"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Annuler</Button>
        <Button variant="contained" disabled={isSaving || (!hasNoEnd && !value)} onClick={save}>
          Enregistrer
        </Button>
      </DialogActions>
    </Dialog>
  );
}
