import {
  type TwoFactorEnableInput,
  type TwoFactorReauthInput,
  twoFactorEnableInput,
  twoFactorReauthInput,
} from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { Notice } from '../../../components/notice.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';

/** Ten single-use codes, shown once: copied, downloaded or written down before going on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Codes de secours BotForge (chacun sert une fois) :\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    notifySuccess('Codes copiés dans le presse-papiers.');
  };
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'codes-de-secours-botforge.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <Box>
      <Notice severity="warning">
        Conservez ces codes en lieu sûr : ils ne seront plus affichés. Chacun remplace une fois le code de
        votre application si vous perdez votre téléphone.
      </Notice>
      <Box
        component="ol"
        data-testid="recovery-codes"
        sx={{ fontFamily: 'monospace', fontSize: '1.05rem', columns: 2, my: 2, pl: 4 }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={() => void copy()}>
          Copier
        </Button>
        <Button variant="outlined" onClick={download}>
          Télécharger (.txt)
        </Button>
        <Button variant="contained" onClick={onDone}>
          J’ai conservé mes codes
        </Button>
      </Box>
    </Box>
  );
}

/** Password and a code again before a sensitive change (turning it off, new recovery codes). */
export function ReauthDialog({
  open,
  title,
  explanation,
  confirmLabel,
  isDestructive = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  explanation: string;
  confirmLabel: string;
  isDestructive?: boolean;
  /** Resolves when done; a rejection keeps the dialog open (the API client showed why). */
  onConfirm: (values: TwoFactorReauthInput) => Promise<void>;
  onClose: () => void;
}) {
  const titleId = useId();
  const form = useForm<TwoFactorReauthInput>({
    resolver: schemaResolver(twoFactorReauthInput),
    defaultValues: { password: '', code: '' },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await onConfirm(values);
    } catch {
      return;
    }
    form.reset();
  });
  const close = () => {
    form.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <DialogContentText>{explanation}</DialogContentText>
          <FormTextField
            form={form}
            name="password"
            label="Mot de passe"
            type="password"
            autoComplete="current-password"
            autoFocus
          />
          <FormTextField
            form={form}
            name="code"
            label="Code de l’application ou code de secours"
            autoComplete="one-time-code"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Annuler</Button>
          <Button
            type="submit"
            variant="contained"
            color={isDestructive ? 'error' : 'primary'}
            disabled={form.formState.isSubmitting}
          >
            {confirmLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** The first code from the app proves the QR code was scanned. */
export function EnrolmentForm({
  setup,
  onConfirm,
  onCancel,
}: {
  setup: { secret: string; qrCode: string };
  onConfirm: (values: TwoFactorEnableInput) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<TwoFactorEnableInput>({
    resolver: schemaResolver(twoFactorEnableInput),
    defaultValues: { password: '', code: '' },
  });
  const submit = form.handleSubmit(async (values) => {
    await onConfirm(values).catch(() => undefined);
  });
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Activer la double authentification">
      <Typography variant="body2">
        1. Scannez ce QR code avec une application d’authentification (Google Authenticator, Microsoft
        Authenticator, FreeOTP, 1Password…).
      </Typography>
      <Box
        component="img"
        src={setup.qrCode}
        alt="QR code à scanner avec votre application d’authentification"
        sx={{ display: 'block', width: 200, height: 200, my: 2, bgcolor: '#fff', borderRadius: 1 }}
      />
      <Typography variant="body2">
        Ou saisissez cette clé dans l’application :{' '}
        <Box
          component="code"
          data-testid="two-factor-secret"
          sx={{ wordBreak: 'break-all', fontSize: '0.95rem' }}
        >
          {setup.secret}
        </Box>
      </Typography>
      <Typography variant="body2" sx={{ mt: 2 }}>
        2. Saisissez le code à 6 chiffres que l’application affiche, et votre mot de passe.
      </Typography>
      <FormTextField
        form={form}
        name="code"
        label="Code à 6 chiffres"
        autoComplete="one-time-code"
        autoFocus
      />
      <FormTextField
        form={form}
        name="password"
        label="Mot de passe"
        type="password"
        autoComplete="current-password"
      />
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
          Vérifier et activer
        </Button>
        <Button color="inherit" onClick={onCancel}>
          Annuler
        </Button>
      </Box>
    </Box>
  );
}
