import { type LoginInput, OUTSTANDING_LINKS_PER_MAILBOX } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useEffect, useRef, useState } from 'react';
import { Navigate, Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { homeAfterLogin, safeRedirectTarget } from '../../../app/guards/guard-decisions.ts';
import { AuthCard } from '../../../components/auth-card.tsx';
import { LightTextField } from '../../../components/light-text-field.tsx';
import { Notice } from '../../../components/notice.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { useAuthStore, useIsConnected } from '../../../lib/auth-store.ts';
import { useLightForm } from '../../../lib/light-form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { resendConfirmation } from '../api/resend-confirmation.ts';
import { SecondFactorStep } from '../components/second-factor-step.tsx';
import { required } from '../form-rules.ts';
import type { PendingSignIn } from '../session.ts';

const authCalls = () => import('../auth-calls.ts');

type Activation = { state: 'pending' } | { state: 'done' } | { state: 'failed'; message: string };

export default function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const isConnected = useIsConnected();
  const activationUsername = params.get('username');
  const activationToken = params.get('token');
  const requested = params.get('redirect');
  // Read when needed: after signIn the store holds the user's permissions.
  const landing = () => {
    const { user, permissions } = useAuthStore.getState();
    return requested
      ? safeRedirectTarget(requested)
      : homeAfterLogin({ isAdministrator: user?.Policy.IsAdministrator === true, permissions });
  };

  const form = useLightForm<LoginInput>({
    defaultValues: { username: activationUsername ?? '', password: '' },
  });
  const [needsActivation, setNeedsActivation] = useState<string | null>(null);
  const [activation, setActivation] = useState<Activation | null>(null);
  const [isResending, setIsResending] = useState(false);
  const [pendingSignIn, setPendingSignIn] = useState<PendingSignIn | null>(null);
  const activationStarted = useRef(false);

  // The activation mail links here with ?username=&token= (docs/specification.md §4).
  useEffect(() => {
    if (!activationUsername || !activationToken || activationStarted.current) return;
    activationStarted.current = true;
    setActivation({ state: 'pending' });
    authCalls()
      .then(({ activate }) => activate({ username: activationUsername, token: activationToken }))
      .then(() => {
        setActivation({ state: 'done' });
        notifySuccess('Votre compte est activé.');
      })
      .catch((error: unknown) =>
        setActivation({
          state: 'failed',
          message: isApiError(error) ? error.message : 'Activation échouée.',
        }),
      );
  }, [activationUsername, activationToken]);

  if (isConnected && !activationToken && !form.formState.isSubmitting && !pendingSignIn)
    return <Navigate to={landing()} replace />;

  const finishSignIn = async () => {
    notifySuccess('Connexion réussie.');
    await navigate(landing(), { replace: true });
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setNeedsActivation(null);
    try {
      const { signIn } = await authCalls();
      const pending = await signIn(values);
      if (pending) setPendingSignIn(pending);
      else await finishSignIn();
    } catch (error) {
      if (isApiError(error) && error.code === 'ACCOUNT_NOT_ACTIVATED') setNeedsActivation(values.username);
      notifyError(isApiError(error) ? error.message : 'Une erreur inconnue est survenue.');
    }
  });

  const onResend = async () => {
    if (!needsActivation) return;
    setIsResending(true);
    try {
      await resendConfirmation({ username: needsActivation });
      // Same words whether a mail went or the mailbox already held its links (decision 914).
      notifySuccess(
        `S’il reste un compte à activer, un e-mail d’activation est envoyé. Rien reçu ? Regardez les indésirables : les liens déjà reçus restent valables, ${OUTSTANDING_LINKS_PER_MAILBOX} au plus à la fois.`,
      );
      setNeedsActivation(null);
    } catch {
      // The API client has shown the message.
    } finally {
      setIsResending(false);
    }
  };

  if (pendingSignIn) {
    return (
      <AuthCard title="Vérification en deux étapes" subtitle={`Connexion de ${pendingSignIn.user.username}`}>
        <SecondFactorStep
          pending={pendingSignIn}
          onSignedIn={() => void finishSignIn()}
          onCancel={() => setPendingSignIn(null)}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Connexion" subtitle="Connectez-vous pour gérer votre bot et votre abonnement.">
      {activation?.state === 'pending' ? <Notice severity="info">Activation de votre compte…</Notice> : null}
      {activation?.state === 'done' ? (
        <Notice severity="success" data-testid="activation-success">
          Votre compte est activé. Vous pouvez maintenant vous connecter.
        </Notice>
      ) : null}
      {activation?.state === 'failed' ? (
        <Notice severity="error" data-testid="activation-failed">
          {activation.message}
        </Notice>
      ) : null}
      {needsActivation ? (
        <Notice
          severity="warning"
          sx={{ mt: 2 }}
          action={
            <Button color="inherit" size="small" onClick={onResend} disabled={isResending}>
              Renvoyer l’e-mail
            </Button>
          }
        >
          Votre compte n’est pas encore activé.
        </Notice>
      ) : null}
      <Box component="form" noValidate onSubmit={onSubmit} aria-label="Connexion">
        <LightTextField
          form={form}
          name="username"
          label="Nom d’utilisateur"
          autoComplete="username"
          autoFocus
          rules={required("Le nom d'utilisateur est requis.")}
        />
        <LightTextField
          form={form}
          name="password"
          label="Mot de passe"
          type="password"
          autoComplete="current-password"
          rules={required('Le mot de passe est requis.')}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          sx={{ mt: 2 }}
          disabled={form.formState.isSubmitting}
        >
          Se connecter
        </Button>
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mt: 3 }}>
        <Link component={RouterLink} to="/forgot-password" variant="body2">
          Mot de passe oublié ?
        </Link>
        <Link component={RouterLink} to="/register" variant="body2">
          Créer un compte
        </Link>
      </Box>
    </AuthCard>
  );
}
