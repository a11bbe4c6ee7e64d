import { FALLBACK_MESSAGES } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card.tsx';
import { LightTextField } from '../../../components/light-text-field.tsx';
import { Notice } from '../../../components/notice.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { TOAST_AUTO_CLOSE_MS, TOAST_AUTO_CLOSE_SECOND_REGISTRATION_MS } from '../../../lib/constants.ts';
import { useLightForm } from '../../../lib/light-form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { usePublicSettings } from '../../settings/index.ts';
import { emailRules, passwordRules, usernameRules } from '../form-rules.ts';

const authCalls = () => import('../auth-calls.ts');

/** The registration payload with the referral as a plain text field (empty means none). */
type RegisterForm = { username: string; email: string; password: string; referral: string };

/** Refusals that concern one field, when the server does not name it itself. */
const FIELD_OF_CODE: Record<string, keyof RegisterForm> = {
  USERNAME_TAKEN: 'username',
  WEAK_PASSWORD: 'password',
  REFERRAL_UNKNOWN: 'referral',
};

function fieldOf(error: unknown): keyof RegisterForm | undefined {
  if (!isApiError(error)) return undefined;
  const named = error.field;
  if (named === 'username' || named === 'email' || named === 'password' || named === 'referral') return named;
  return FIELD_OF_CODE[error.code];
}

export default function RegisterPage() {
  const [params] = useSearchParams();
  const settings = usePublicSettings((state) => state.settings);
  const isClosed = settings?.registrationOpen === false;
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);
  const registrations = useRef(0);

  const form = useLightForm<RegisterForm>({
    defaultValues: { username: '', email: '', password: '', referral: params.get('ref') ?? '' },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { register } = await authCalls();
      await register({ ...values, referral: values.referral.trim() || null });
    } catch (error) {
      // A refusal about one field goes under it; anything else in a toast.
      const field = fieldOf(error);
      if (field) form.setFieldError(field, (error as Error).message);
      else notifyError(error instanceof Error ? error.message : FALLBACK_MESSAGES.register);
      return;
    }
    // docs/specification.md §7: a second registration in the same visit closes its toast after 1000 ms.
    const autoClose =
      registrations.current > 0 ? TOAST_AUTO_CLOSE_SECOND_REGISTRATION_MS : TOAST_AUTO_CLOSE_MS;
    registrations.current += 1;
    // The toast says it worked; the box below says what to do next (not the same words twice).
    notifySuccess('Inscription réussie !', { autoClose });
    setRegisteredEmail(values.email);
    // A sponsor's link (?ref=) stays for the next registration; a typed sponsor does not.
    form.reset({ username: '', email: '', password: '', referral: params.get('ref') ?? '' });
  });

  return (
    <AuthCard
      title="Inscription"
      subtitle="Créez votre compte en une minute, puis activez-le depuis l’e-mail reçu."
    >
      {isClosed ? (
        <Notice severity="warning" sx={{ mb: 2 }}>
          Les inscriptions sont actuellement fermées.
        </Notice>
      ) : null}
      {registeredEmail ? (
        <Notice severity="success" sx={{ mb: 2 }} data-testid="register-success">
          Dernière étape : ouvrez le lien de l’e-mail envoyé à {registeredEmail} pour activer votre compte.
        </Notice>
      ) : null}
      <Box component="form" noValidate onSubmit={onSubmit} aria-label="Inscription">
        <LightTextField
          form={form}
          name="username"
          label="Nom d’utilisateur"
          autoComplete="username"
          rules={usernameRules}
        />
        <LightTextField
          form={form}
          name="email"
          label="Adresse e-mail"
          type="email"
          autoComplete="email"
          rules={emailRules}
        />
        <LightTextField
          form={form}
          name="password"
          label="Mot de passe"
          type="password"
          autoComplete="new-password"
          rules={passwordRules}
          helperText="8 caractères au moins ; évitez les mots de passe courants."
        />
        <LightTextField form={form} name="referral" label="Parrain (facultatif)" autoComplete="off" />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          sx={{ mt: 2 }}
          disabled={form.formState.isSubmitting || isClosed}
        >
          Créer mon compte
        </Button>
      </Box>
      <Box sx={{ mt: 3 }}>
        <Link component={RouterLink} to="/login" variant="body2">
          Déjà inscrit ? Se connecter
        </Link>
      </Box>
    </AuthCard>
  );
}
