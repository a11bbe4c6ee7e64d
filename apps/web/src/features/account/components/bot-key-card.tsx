import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SectionCard } from '../../../components/section-card.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { accountKeys, botKeyQuery, rotateBotKey } from '../api/account.ts';

export function BotKeyCard() {
  const queryClient = useQueryClient();
  const [isShown, setIsShown] = useState(false);
  const [isConfirming, setIsConfirming] = useState(false);
  const [isRotating, setIsRotating] = useState(false);
  const key = useQuery({ ...botKeyQuery, enabled: isShown });

  const onCopy = async () => {
    const value = key.data ?? (await queryClient.fetchQuery(botKeyQuery));
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    notifySuccess('Clé copiée dans le presse-papiers.');
  };

  const onRotate = async () => {
    setIsConfirming(false);
    setIsRotating(true);
    try {
      const accessKey = await rotateBotKey();
      queryClient.setQueryData(accountKeys.botKey, accessKey);
      setIsShown(true);
      notifySuccess('Nouvelle clé générée. Collez-la dans votre bot.');
    } catch {
      // The API client has shown the message.
    } finally {
      setIsRotating(false);
    }
  };

  return (
    <SectionCard
      title="Clé d’accès du bot"
      subheader="Collez cette clé dans le bot au premier lancement. Ne la partagez pas."
    >
      <TextField
        label="Clé d’accès"
        value={isShown ? (key.data ?? 'Chargement…') : '••••••••••••••••••••••••'}
        slotProps={{
          htmlInput: { readOnly: true, 'data-testid': 'bot-key', style: { fontFamily: 'monospace' } },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton
                  aria-label={isShown ? 'Masquer la clé' : 'Afficher la clé'}
                  onClick={() => setIsShown(!isShown)}
                >
                  {isShown ? <VisibilityOff /> : <Visibility />}
                </IconButton>
                <IconButton aria-label="Copier la clé" onClick={onCopy}>
                  <ContentCopyIcon />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      <Button
        sx={{ mt: 1 }}
        variant="outlined"
        color="warning"
        disabled={isRotating}
        onClick={() => setIsConfirming(true)}
      >
        Régénérer la clé
      </Button>
      <Dialog open={isConfirming} onClose={() => setIsConfirming(false)}>
        <DialogTitle>Régénérer la clé d’accès ?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            L’ancienne clé cessera de fonctionner : votre bot devra être reconfiguré avec la nouvelle.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setIsConfirming(false)}>Annuler</Button>
          <Button color="warning" variant="contained" onClick={onRotate}>
            Régénérer
          </Button>
        </DialogActions>
      </Dialog>
    </SectionCard>
  );
}
