import { type FormEvent, useRef, useState } from 'react';

/** Built-in rules of a field, each with its French message (react-hook-form's names). */
export interface FieldRules<T> {
  required?: string;
  minLength?: { value: number; message: string };
  maxLength?: { value: number; message: string };
  pattern?: { value: RegExp; message: string };
  validate?: (value: string, values: T) => true | string;
}

/** The message of the first rule `value` breaks, if any. */
export function checkField<T>(value: string, values: T, rules: FieldRules<T>): string | undefined {
  if (!value) return rules.required;
  if (rules.minLength && value.length < rules.minLength.value) return rules.minLength.message;
  if (rules.maxLength && value.length > rules.maxLength.value) return rules.maxLength.message;
  if (rules.pattern && !rules.pattern.value.test(value)) return rules.pattern.message;
  const verdict = rules.validate?.(value, values);
  return typeof verdict === 'string' ? verdict : undefined;
}

type Errors<T> = Partial<Record<keyof T, string>>;

interface Registration {
  name: string;
  ref: (element: HTMLInputElement | null) => void;
  onChange: (event: { target: { value: string } }) => void;
}

/**
 * What the public forms used of react-hook-form's `useForm`: uncontrolled text inputs, `register`
 * with built-in rules, `handleSubmit` (validation on submit, then on every change; focus on the first
 * invalid field), `reset`, `formState.errors` (messages) and `isSubmitting`. A few hundred bytes
 * instead of react-hook-form's 13 KB gzip on the pages a visitor lands on (docs/decisions/103); the
 * account and admin forms keep react-hook-form with the contracts' zod schemas.
 */
export function useLightForm<T extends Record<string, string>>({ defaultValues }: { defaultValues: T }) {
  const values = useRef<T>({ ...defaultValues });
  const rules = useRef(new Map<keyof T, FieldRules<T>>());
  const inputs = useRef(new Map<keyof T, HTMLInputElement>());
  const registrations = useRef(new Map<keyof T, Registration>());
  const isSubmitted = useRef(false);
  const [errors, setErrors] = useState<Errors<T>>({});
  const [isSubmitting, setIsSubmitting] = useState(false);

  const findErrors = () => {
    const found: Errors<T> = {};
    for (const [name, fieldRules] of rules.current) {
      const message = checkField(values.current[name] ?? '', values.current, fieldRules);
      if (message) found[name] = message;
    }
    return found;
  };

  const register = (name: Extract<keyof T, string>, fieldRules?: FieldRules<T>): Registration => {
    if (fieldRules) rules.current.set(name, fieldRules);
    else rules.current.delete(name);
    let registration = registrations.current.get(name);
    if (!registration) {
      registration = {
        name,
        ref: (element) => {
          if (!element) return void inputs.current.delete(name);
          inputs.current.set(name, element);
          const value = values.current[name] ?? '';
          if (element.value !== value) element.value = value;
        },
        onChange: (event) => {
          values.current = { ...values.current, [name]: event.target.value };
          if (isSubmitted.current) setErrors(findErrors());
        },
      };
      registrations.current.set(name, registration);
    }
    return registration;
  };

  const handleSubmit = (onValid: (values: T) => Promise<void> | void) => async (event?: FormEvent) => {
    event?.preventDefault();
    isSubmitted.current = true;
    const found = findErrors();
    setErrors(found);
    const firstInvalid = (Object.keys(found) as (keyof T)[])[0];
    if (firstInvalid !== undefined) return inputs.current.get(firstInvalid)?.focus();
    setIsSubmitting(true);
    try {
      await onValid({ ...values.current });
    } finally {
      setIsSubmitting(false);
    }
  };

  const reset = (next: T = defaultValues) => {
    values.current = { ...next };
    for (const [name, input] of inputs.current) input.value = next[name] ?? '';
    isSubmitted.current = false;
    setErrors({});
  };

  /** Shows a message under a field (a refusal from the server) and focuses it; the next edit clears it. */
  const setFieldError = (name: keyof T, message: string) => {
    setErrors((current) => ({ ...current, [name]: message }));
    inputs.current.get(name)?.focus();
  };

  return { register, handleSubmit, reset, setFieldError, formState: { errors, isSubmitting } };
}

export type LightForm<T extends Record<string, string>> = ReturnType<typeof useLightForm<T>>;
