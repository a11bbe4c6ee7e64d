import { styled } from '@mui/material/styles';
import { type InputHTMLAttributes, useId } from 'react';
import type { FieldRules, LightForm } from '../lib/light-form.ts';

/**
 * MUI's outlined text field drawn with one styled wrapper around a native input and its label (the
 * label floats on focus or once the input holds a value, `:placeholder-shown`). MUI's FormControl,
 * InputLabel, OutlinedInput and FormHelperText weigh 7 KB gzip on the form pages a visitor lands on
 * (docs/decisions/103); the account and admin forms keep them (components/form-text-field.tsx).
 */
const Field = styled('div')(({ theme }) => {
  const shrunk = {
    transform: 'translate(9px, -9px) scale(0.75)',
    maxWidth: 'calc(133% - 32px)',
    padding: '0 5px',
    backgroundColor: theme.palette.background.paper,
  };
  return {
    ...theme.typography.body1,
    position: 'relative',
    // inline-flex like MUI's FormControl: the margins do not collapse with their neighbours'.
    display: 'inline-flex',
    flexDirection: 'column',
    verticalAlign: 'top',
    minWidth: 0,
    width: '100%',
    margin: theme.spacing(2, 0, 1),
    '& input': {
      font: 'inherit',
      letterSpacing: 'inherit',
      display: 'block',
      boxSizing: 'border-box',
      width: '100%',
      height: 'calc(1.4375em + 33px)',
      margin: 0,
      padding: '16.5px 14px',
      color: theme.palette.text.primary,
      background: 'none',
      border: 0,
      borderRadius: theme.shape.borderRadius,
      outline: '1px solid rgba(255, 255, 255, 0.23)',
      outlineOffset: -1,
      '&:hover': { outlineColor: theme.palette.text.primary },
      '&:focus': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: -2 },
      '&[aria-invalid="true"]': { outlineColor: theme.palette.error.main },
      '&:-webkit-autofill': {
        WebkitBoxShadow: '0 0 0 100px #266798 inset',
        WebkitTextFillColor: '#fff',
        caretColor: '#fff',
      },
      '&::placeholder': { opacity: 0 },
    },
    '& label': {
      position: 'absolute',
      left: 0,
      top: 0,
      maxWidth: 'calc(100% - 24px)',
      overflow: 'hidden',
      whiteSpace: 'nowrap',
      textOverflow: 'ellipsis',
      color: theme.palette.text.secondary,
      pointerEvents: 'none',
      transformOrigin: 'top left',
      transform: 'translate(14px, 16px) scale(1)',
      transition: theme.transitions.create(['color', 'transform', 'max-width'], {
        duration: theme.transitions.duration.shorter,
        easing: theme.transitions.easing.easeOut,
      }),
    },
    '& input:focus + label': { ...shrunk, color: theme.palette.primary.main },
    '& input:not(:placeholder-shown) + label': shrunk,
    '& input[aria-invalid="true"] + label': { color: theme.palette.error.main },
    '& p': {
      ...theme.typography.caption,
      margin: '3px 14px 0',
      color: theme.palette.text.secondary,
    },
    '& p.error': { color: theme.palette.error.main },
  };
});

/** An outlined text field bound to a lib/light-form.ts form; `name` is the payload field. */
export function LightTextField<T extends Record<string, string>>({
  form,
  name,
  label,
  type = 'text',
  autoComplete,
  autoFocus,
  helperText,
  rules,
}: {
  form: LightForm<T>;
  name: Extract<keyof T, string>;
  label: string;
  type?: InputHTMLAttributes<HTMLInputElement>['type'];
  autoComplete?: string;
  autoFocus?: boolean;
  helperText?: string;
  rules?: FieldRules<T>;
}) {
  const id = useId();
  const message = form.formState.errors[name];
  const help = message ?? helperText;
  return (
    <Field>
      <input
        {...form.register(name, rules)}
        id={id}
        type={type}
        placeholder=" "
        autoComplete={autoComplete}
        // biome-ignore lint/a11y/noAutofocus: the sign-in form focuses its first field, as before
        autoFocus={autoFocus}
        aria-invalid={message ? true : undefined}
        aria-describedby={help ? `${id}-help` : undefined}
      />
      <label htmlFor={id}>{label}</label>
      {help ? (
        <p id={`${id}-help`} className={message ? 'error' : undefined}>
          {help}
        </p>
      ) : null}
    </Field>
  );
}
