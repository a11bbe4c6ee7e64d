import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { type InputHTMLAttributes, useId } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

/**
 * An outlined text field bound to react-hook-form; `name` is the payload field (autofill, password
 * managers). Built from the input parts rather than MUI's TextField, which also bundles Select, Menu
 * and Popover into every form page.
 */
export function FormTextField<T extends FieldValues>({
  form,
  name,
  label,
  type = 'text',
  autoComplete,
  autoFocus,
  helperText,
}: {
  form: UseFormReturn<T>;
  name: Path<T>;
  label: string;
  type?: InputHTMLAttributes<HTMLInputElement>['type'];
  autoComplete?: string;
  autoFocus?: boolean;
  helperText?: string;
}) {
  const id = useId();
  const { ref, ...field } = form.register(name);
  const error = form.formState.errors[name];
  const message = typeof error?.message === 'string' ? error.message : undefined;
  const help = message ?? helperText;
  return (
    <FormControl fullWidth margin="normal" error={Boolean(message)} variant="outlined">
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        {...field}
        id={id}
        inputRef={ref}
        type={type}
        label={label}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        aria-describedby={help ? `${id}-help` : undefined}
      />
      {help ? <FormHelperText id={`${id}-help`}>{help}</FormHelperText> : null}
    </FormControl>
  );
}
