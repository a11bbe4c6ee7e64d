import { OUTSTANDING_LINKS_PER_MAILBOX } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card.tsx';
import { LightTextField } from '../../../components/light-text-field.tsx';
import { Notice } from '../../../components/notice.tsx';
import { useLightForm } from '../../../lib/light-form.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { requestPasswordReset } from '../api/forgot-password.ts';
import { resetPassword } from '../api/reset-password.ts';
import { emailRules, passwordRules } from '../form-rules.ts';

function RequestForm() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useLightForm<{ email: string }>({
    defaultValues: { email: '' },
  });
  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      await requestPasswordReset({ email });
      setSentTo(email);
    } catch {
      // The API client has shown the message.
    }
  });
  return (
    <AuthCard
      title="Mot de passe oublié"
      subtitle="Indiquez l’adresse e-mail de votre compte : nous vous enverrons un lien."
    >
      {sentTo ? (
        <Notice severity="success" data-testid="forgot-sent">
          {/* The same words whether a mail went or not: the mailbox may already hold its links
              (docs/decisions/914-mailbox-cap.md), and the answer must not tell which. */}
          Si un compte correspond à {sentTo}, un e-mail avec un lien de réinitialisation est envoyé, valable
          30 minutes. Rien reçu ? Regardez les indésirables : les liens déjà reçus restent valables,{' '}
          {OUTSTANDING_LINKS_PER_MAILBOX} au plus à la fois.
        </Notice>
      ) : null}
      <Box component="form" noValidate onSubmit={onSubmit} aria-label="Mot de passe oublié">
        <LightTextField
          form={form}
          name="email"
          label="Adresse e-mail"
          type="email"
          autoComplete="email"
          rules={emailRules}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          sx={{ mt: 2 }}
          disabled={form.formState.isSubmitting}
        >
          Envoyer le lien
        </Button>
      </Box>
      <Box sx={{ mt: 3 }}>
        <Link component={RouterLink} to="/login" variant="body2">
          Retour à la connexion
        </Link>
      </Box>
    </AuthCard>
  );
}

function ResetForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const form = useLightForm<{ password: string; confirmation: string }>({
    defaultValues: { password: '', confirmation: '' },
  });
  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      await resetPassword({ token, password });
    } catch {
      return;
    }
    notifySuccess('Mot de passe modifié. Connectez-vous avec le nouveau mot de passe.');
    await navigate('/login', { replace: true });
  });
  return (
    <AuthCard title="Nouveau mot de passe" subtitle="Choisissez le nouveau mot de passe de votre compte.">
      <Box component="form" noValidate onSubmit={onSubmit} aria-label="Nouveau mot de passe">
        <LightTextField
          form={form}
          name="password"
          label="Nouveau mot de passe"
          type="password"
          autoComplete="new-password"
          rules={passwordRules}
        />
        <LightTextField
          form={form}
          name="confirmation"
          label="Confirmez le mot de passe"
          type="password"
          autoComplete="new-password"
          rules={{
            ...passwordRules,
            validate: (value, values) =>
              value === values.password || 'Les deux mots de passe ne correspondent pas.',
          }}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          sx={{ mt: 2 }}
          disabled={form.formState.isSubmitting}
        >
          Changer le mot de passe
        </Button>
      </Box>
    </AuthCard>
  );
}

export default function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <ResetForm token={token} /> : <RequestForm />;
}
