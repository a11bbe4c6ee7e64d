import FormControlLabel from '@mui/material/FormControlLabel';
import Switch, { type SwitchProps } from '@mui/material/Switch';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';

/** A labelled on/off switch bound to a boolean field of a react-hook-form form. */
export function FormSwitch<T extends FieldValues>({
  control,
  name,
  label,
  color,
}: {
  control: Control<T>;
  name: Path<T>;
  label: string;
  color?: SwitchProps['color'];
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          label={label}
          control={
            <Switch
              name={name}
              checked={Boolean(field.value)}
              onChange={(event) => field.onChange(event.target.checked)}
              color={color}
            />
          }
        />
      )}
    />
  );
}
