import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { LightTextField } from '../../../components/light-text-field.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { useLightForm } from '../../../lib/light-form.ts';
import { notifyError } from '../../../lib/notify.ts';
import type { PendingSignIn } from '../session.ts';

const authCalls = () => import('../auth-calls.ts');

/** The sign-in's second step: the code of the authenticator app, or a recovery code. */
export function SecondFactorStep({
  pending,
  onSignedIn,
  onCancel,
}: {
  pending: PendingSignIn;
  onSignedIn: () => void;
  onCancel: () => void;
}) {
  const form = useLightForm({ defaultValues: { code: '' } });

  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      const { completeSecondFactor } = await authCalls();
      await completeSecondFactor(pending, code);
      onSignedIn();
    } catch (error) {
      notifyError(isApiError(error) ? error.message : 'Une erreur inconnue est survenue.');
    }
  });

  const cancel = async () => {
    const { abandonSignIn } = await authCalls();
    await abandonSignIn(pending);
    onCancel();
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label="Double authentification">
      <Typography variant="body2" color="text.secondary">
        Votre compte est protégé par la double authentification. Saisissez le code à 6 chiffres affiché par
        votre application, ou l’un de vos codes de secours.
      </Typography>
      <LightTextField
        form={form}
        name="code"
        label="Code de vérification"
        autoComplete="one-time-code"
        autoFocus
        rules={{
          required: 'Saisissez le code.',
          minLength: { value: 6, message: 'Le code compte au moins 6 caractères.' },
          maxLength: { value: 32, message: 'Code trop long.' },
        }}
      />
      <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
        <Button
          type="submit"
          variant="contained"
          size="large"
          sx={{ flex: 1 }}
          disabled={form.formState.isSubmitting}
        >
          Vérifier
        </Button>
        <Button color="inherit" size="large" onClick={() => void cancel()}>
          Annuler
        </Button>
      </Box>
    </Box>
  );
}
