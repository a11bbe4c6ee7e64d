import type { FieldValues, Path, RegisterOptions, UseFormReturn } from 'react-hook-form';

/** Binds MUI's TextField to a react-hook-form field: the input, and its error message under it. */
export function textFieldProps<T extends FieldValues>(
  form: UseFormReturn<T>,
  name: Path<T>,
  options?: RegisterOptions<T, Path<T>>,
) {
  const message = form.formState.errors[name]?.message;
  return {
    ...form.register(name, options),
    error: message !== undefined,
    helperText: typeof message === 'string' ? message : undefined,
  };
}

/** The field's error when it has one, else a hint under it. */
export function withHint<P extends { helperText?: string }>(
  props: P,
  hint: string,
): P & { helperText: string } {
  return { ...props, helperText: props.helperText ?? hint };
}
