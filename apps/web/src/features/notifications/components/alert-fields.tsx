import type { AlertPreferences } from '@bot/contracts';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';

const CHANNEL_NAMES = { inApp: 'dans l’application', email: 'par e-mail', discord: 'sur Discord' } as const;

/** Where a card's alerts go, with the way to the channels card (one set of channels per person). */
export function ChannelsLine({ channels }: { channels: AlertPreferences['channels'] | undefined }) {
  const chosen = channels
    ? (Object.keys(CHANNEL_NAMES) as (keyof typeof CHANNEL_NAMES)[])
        .filter((key) => channels[key])
        .map((key) => CHANNEL_NAMES[key])
    : [];
  return (
    <Typography variant="body2" color="text.secondary">
      {chosen.length > 0
        ? `Envoyées ${chosen.join(', ')} : `
        : 'Aucun canal choisi : ces alertes ne partiront nulle part. '}
      <RouterLink to="/account/notifications#canaux">choisir les canaux</RouterLink>.
    </Typography>
  );
}

/** A rule of an alert form: a checkbox bound to a boolean field. */
export function RuleCheckbox<T extends FieldValues>(props: {
  control: Control<T>;
  name: Path<T>;
  label: string;
}) {
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field }) => (
        <FormControlLabel
          label={props.label}
          control={
            <Checkbox
              name={field.name}
              checked={field.value === true}
              onChange={(event) => field.onChange(event.target.checked)}
              onBlur={field.onBlur}
              slotProps={{ input: { ref: field.ref } }}
            />
          }
        />
      )}
    />
  );
}

/** A rule's number (minutes, a share); an empty field is NaN, which the contracts' schema words in French. */
export function RuleNumberField<T extends FieldValues>(props: {
  control: Control<T>;
  name: Path<T>;
  label: string;
  min: number;
  max: number;
}) {
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field, fieldState }) => (
        <TextField
          name={field.name}
          inputRef={field.ref}
          label={props.label}
          type="number"
          size="small"
          value={Number.isNaN(field.value) ? '' : field.value}
          onChange={(event) =>
            field.onChange(event.target.value === '' ? Number.NaN : Number(event.target.value))
          }
          onBlur={field.onBlur}
          error={fieldState.error !== undefined}
          helperText={fieldState.error?.message ?? ' '}
          slotProps={{ htmlInput: { min: props.min, max: props.max, step: 1 } }}
          sx={{ maxWidth: 240, ml: 4 }}
        />
      )}
    />
  );
}
