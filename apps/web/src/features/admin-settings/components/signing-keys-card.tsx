import {
  KEY_SET_EXPIRY_WARNING_DAYS,
  type KeySetStatus,
  PERMISSION_DESCRIPTIONS,
  SIGNING_KEY_PURPOSE_LABELS,
  SIGNING_KEY_STATE_LABELS,
  type SigningKey,
} from '@bot/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime } from '../../../components/admin-table/index.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { keySetQuery, revokeSigningKey, signingKeysKeys, signingKeysQuery } from '../api/signing-keys.ts';
import { revokeConfirmText } from './signing-keys-text.ts';

/** Shown when the set cannot be read: the command's shape, its file left to the operator. */
const ROTATE_COMMAND_SHAPE = 'npm run keys:rotate -- --root-key …';

const shortKid = (kid: string) => `${kid.slice(0, 12)}…`;

/** The set's version, its expiry (a warning from 14 days before) and the command that rotates it. */
function KeySetSummary({ keySet }: { keySet: KeySetStatus | null }) {
  if (!keySet)
    return (
      <Alert severity="warning">Aucun jeu de clés signé : les bots ne peuvent vérifier aucun bail.</Alert>
    );
  const daysLeft = Math.floor((Date.parse(keySet.expiresAt) - Date.now()) / 86_400_000);
  return (
    <Box sx={{ mb: 1 }}>
      <Typography variant="body2">
        Jeu de clés version {keySet.version}, signé par la racine {shortKid(keySet.rootKid)}
        {keySet.isDevelopmentRoot ? ' (racine de développement : installation d’essai seulement)' : ''},
        valable jusqu’au {formatDateTime(keySet.expiresAt)}.
      </Typography>
      {daysLeft <= KEY_SET_EXPIRY_WARNING_DAYS && (
        <Alert severity={daysLeft < 0 ? 'error' : 'warning'} sx={{ my: 1 }}>
          {daysLeft < 0
            ? 'Le jeu de clés a expiré : les bots refusent tout bail jusqu’à ce qu’un nouveau jeu soit signé.'
            : `Le jeu de clés expire dans ${daysLeft} jour${daysLeft > 1 ? 's' : ''} : signez-en un nouveau.`}
        </Alert>
      )}
      <Typography variant="body2" color="text.secondary">
        Changer une clé ou prolonger le jeu demande la clé racine, gardée hors du serveur : sur la machine où
        elle se trouve, lancez
      </Typography>
      <Typography
        component="pre"
        variant="body2"
        sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', my: 1 }}
      >
        {keySet.rotateCommand}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        (--purpose release pour la clé des versions, --purpose none pour seulement prolonger le jeu).
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        Les membres de l’équipe qui ont la permission « {PERMISSION_DESCRIPTIONS.can_manageSettings} » sont
        alertés {KEY_SET_EXPIRY_WARNING_DAYS} jours avant son expiration, qu’ils aient choisi ou non les
        alertes de flotte : notification sur le site, et e-mail si leurs canaux d’alerte le prévoient.
      </Typography>
    </Box>
  );
}

function keyDates(key: SigningKey): string {
  const parts = [`créée le ${formatDateTime(key.createdAt)}`];
  if (key.retiredAt) parts.push(`remplacée le ${formatDateTime(key.retiredAt)}`);
  if (key.revokedAt) parts.push(`révoquée le ${formatDateTime(key.revokedAt)}`);
  return parts.join(' · ');
}

/**
 * The keys that sign the bots' leases and release manifests (docs/licensing.md, decision 912): the
 * key set the offline root signed, its expiry and the command that rotates it (the server cannot
 * sign a set), the expiry alert its holders get, and revocation in a danger zone of its own (refused at
 * once; the dialog says what holds for that key: decision 912).
 */
export function SigningKeysCard() {
  const queryClient = useQueryClient();
  const keys = useQuery(signingKeysQuery).data ?? [];
  const keySet = useQuery(keySetQuery);
  const [pending, setPending] = useState<SigningKey | null>(null);
  const [isWorking, setIsWorking] = useState(false);
  const revocable = keys.filter((key) => key.state !== 'revoked');

  const confirm = async () => {
    if (!pending) return;
    setIsWorking(true);
    try {
      await revokeSigningKey(pending.kid);
      notifySuccess(`Clé ${shortKid(pending.kid)} révoquée.`);
      await queryClient.invalidateQueries({ queryKey: signingKeysKeys.all });
      setPending(null);
    } catch {
      // shown by the API client
    } finally {
      setIsWorking(false);
    }
  };

  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardHeader title="Clés de signature" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
      <CardContent sx={{ pt: 0 }}>
        {keySet.isSuccess && <KeySetSummary keySet={keySet.data} />}
        <Typography variant="body2" color="text.secondary">
          Chaque bot vérifie hors ligne le bail signé par ces clés, et le manifeste de chaque version avant de
          l’installer (clé des versions) ; il ne les croit que nommées par le jeu signé par la racine
          (/.well-known/bot-keyset.json).
        </Typography>
        <List dense aria-label="Clés de signature">
          {keys.map((key) => (
            <ListItem key={key.kid} disableGutters>
              <ListItemText
                primary={`${shortKid(key.kid)} — ${SIGNING_KEY_PURPOSE_LABELS[key.purpose]} — ${SIGNING_KEY_STATE_LABELS[key.state]}`}
                secondary={keyDates(key)}
              />
            </ListItem>
          ))}
        </List>
        {revocable.length > 0 && (
          <Box
            component="section"
            aria-labelledby="signing-keys-danger"
            sx={{ mt: 2, p: 2, border: 1, borderColor: 'error.main', borderRadius: 1 }}
          >
            <Typography id="signing-keys-danger" variant="subtitle1" component="h3" color="error">
              Zone dangereuse : révoquer une clé
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Seulement si une clé a fuité. Une révocation est définitive, et remplacer la clé révoquée
              demande la clé racine.
            </Typography>
            <List dense aria-label="Clés à révoquer">
              {revocable.map((key) => (
                <ListItem
                  key={key.kid}
                  disableGutters
                  secondaryAction={
                    <Button color="error" variant="outlined" size="small" onClick={() => setPending(key)}>
                      Révoquer
                    </Button>
                  }
                >
                  <ListItemText
                    primary={`${shortKid(key.kid)} — ${SIGNING_KEY_PURPOSE_LABELS[key.purpose]} — ${SIGNING_KEY_STATE_LABELS[key.state]}`}
                  />
                </ListItem>
              ))}
            </List>
          </Box>
        )}
      </CardContent>
      <ConfirmDialog
        open={pending !== null}
        title="Révoquer cette clé ?"
        confirmLabel="Révoquer"
        isBusy={isWorking}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      >
        {pending ? revokeConfirmText(pending, keySet.data?.rotateCommand ?? ROTATE_COMMAND_SHAPE) : null}
      </ConfirmDialog>
    </Card>
  );
}
