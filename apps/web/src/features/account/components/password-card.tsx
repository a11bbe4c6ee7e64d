import { changePasswordInput } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';
import { changePassword } from '../api/account.ts';

type PasswordForm = z.infer<typeof changePasswordInput>;

export function PasswordCard() {
  const form = useForm<PasswordForm>({
    resolver: schemaResolver(changePasswordInput),
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await changePassword(values);
    } catch {
      return;
    }
    notifySuccess('Mot de passe modifié. Vos autres sessions ont été fermées.');
    form.reset();
  });
  return (
    <SectionCard
      title="Mot de passe"
      subheader="Changer le mot de passe ferme vos sessions sur les autres appareils."
    >
      <Box component="form" noValidate onSubmit={onSubmit} aria-label="Changer le mot de passe">
        <input type="text" name="username" autoComplete="username" hidden readOnly />
        <FormTextField
          form={form}
          name="currentPassword"
          label="Mot de passe actuel"
          type="password"
          autoComplete="current-password"
        />
        <FormTextField
          form={form}
          name="newPassword"
          label="Nouveau mot de passe"
          type="password"
          autoComplete="new-password"
        />
        <Button type="submit" variant="contained" sx={{ mt: 1 }} disabled={form.formState.isSubmitting}>
          Changer le mot de passe
        </Button>
      </Box>
    </SectionCard>
  );
}
