import type { TwoFactorEnableInput, TwoFactorReauthInput, TwoFactorSetup } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Notice } from '../../../components/notice.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { dateLong as dateFormat } from '../../../lib/dates.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import {
  disableTwoFactor,
  enableTwoFactor,
  renewRecoveryCodes,
  startTwoFactorSetup,
  twoFactorKeys,
  twoFactorStatusQuery,
} from '../api/two-factor.ts';
import { EnrolmentForm, ReauthDialog, RecoveryCodes } from './two-factor-parts.tsx';
import { TWO_FACTOR_SECTION_ID } from './two-factor-section.ts';

type Step =
  | { kind: 'idle' }
  | { kind: 'enrolling'; setup: TwoFactorSetup }
  | { kind: 'showing-codes'; codes: string[] }
  | { kind: 'confirming'; action: 'disable' | 'renew' };

/** Two-factor authentication (TOTP): enrol with a QR code, recovery codes, turn off with re-authentication. */
export function TwoFactorCard() {
  const queryClient = useQueryClient();
  const status = useQuery(twoFactorStatusQuery);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [isStarting, setIsStarting] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.status });

  const start = async () => {
    setIsStarting(true);
    try {
      setStep({ kind: 'enrolling', setup: await startTwoFactorSetup() });
    } catch {
      // The API client has shown the message.
    } finally {
      setIsStarting(false);
    }
  };

  const confirmEnrolment = async (values: TwoFactorEnableInput) => {
    const codes = await enableTwoFactor(values);
    setStep({ kind: 'showing-codes', codes });
    notifySuccess('Double authentification activée.');
    await refresh();
  };

  const disable = async (values: TwoFactorReauthInput) => {
    await disableTwoFactor(values);
    setStep({ kind: 'idle' });
    notifySuccess('Double authentification désactivée. Vos autres sessions ont été fermées.');
    await refresh();
  };

  const renew = async (values: TwoFactorReauthInput) => {
    const codes = await renewRecoveryCodes(values);
    setStep({ kind: 'showing-codes', codes });
    await refresh();
  };

  const data = status.data;
  return (
    <SectionCard
      id={TWO_FACTOR_SECTION_ID}
      title="Double authentification"
      subheader="Un code de votre téléphone en plus du mot de passe à chaque connexion."
    >
      {data?.required && !data.enabled ? (
        <Notice severity="warning" sx={{ mb: 2 }}>
          Elle est obligatoire pour accéder à l’administration : activez-la ci-dessous.
        </Notice>
      ) : null}
      {step.kind === 'enrolling' ? (
        <EnrolmentForm
          setup={step.setup}
          onConfirm={confirmEnrolment}
          onCancel={() => setStep({ kind: 'idle' })}
        />
      ) : step.kind === 'showing-codes' ? (
        <RecoveryCodes codes={step.codes} onDone={() => setStep({ kind: 'idle' })} />
      ) : data?.enabled ? (
        <Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Chip color="success" label="Activée" />
            {data.enabledAt ? (
              <Typography variant="body2">depuis le {dateFormat.format(new Date(data.enabledAt))}</Typography>
            ) : null}
          </Box>
          <Typography variant="body2" sx={{ mt: 1 }} data-testid="recovery-codes-left">
            Codes de secours restants : {data.recoveryCodesLeft} sur 10.
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap' }}>
            <Button variant="outlined" onClick={() => setStep({ kind: 'confirming', action: 'renew' })}>
              Nouveaux codes de secours
            </Button>
            <Button
              variant="outlined"
              color="error"
              onClick={() => setStep({ kind: 'confirming', action: 'disable' })}
            >
              Désactiver
            </Button>
          </Box>
        </Box>
      ) : (
        <Box>
          <Typography variant="body2">
            Désactivée. Activez-la : même avec votre mot de passe, personne ne pourra alors se connecter sans
            votre téléphone.
          </Typography>
          <Button
            variant="contained"
            sx={{ mt: 2 }}
            onClick={() => void start()}
            disabled={isStarting || !data}
          >
            Activer la double authentification
          </Button>
        </Box>
      )}
      <ReauthDialog
        open={step.kind === 'confirming' && step.action === 'disable'}
        title="Désactiver la double authentification ?"
        explanation="Votre compte ne sera plus protégé que par le mot de passe, et vos autres sessions seront fermées. Confirmez avec votre mot de passe et un code."
        confirmLabel="Désactiver"
        isDestructive
        onConfirm={disable}
        onClose={() => setStep({ kind: 'idle' })}
      />
      <ReauthDialog
        open={step.kind === 'confirming' && step.action === 'renew'}
        title="Générer de nouveaux codes de secours ?"
        explanation="Les codes actuels cesseront de fonctionner. Confirmez avec votre mot de passe et un code."
        confirmLabel="Générer"
        onConfirm={renew}
        onClose={() => setStep({ kind: 'idle' })}
      />
    </SectionCard>
  );
}
