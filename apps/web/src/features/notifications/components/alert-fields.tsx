import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';

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
