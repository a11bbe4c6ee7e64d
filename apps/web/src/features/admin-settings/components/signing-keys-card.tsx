import {
  KEY_SET_EXPIRY_WARNING_DAYS,
  type KeySetStatus,
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

const shortKid = (kid: string) => `${kid.slice(0, 12)}…`;

/** What a revocation does, for the key concerned (no root needed: its standby takes over). */
function confirmText(key: SigningKey | null): string {
  return key?.purpose === 'release'
    ? 'Les manifestes signés par cette clé sont refusés tout de suite : les bots demandent la mise à jour de nouveau et reçoivent un manifeste signé par la clé de réserve, qui prend le relais. À faire si la clé a fuité.'
    : 'Les baux signés par cette clé sont refusés tout de suite : les bots connectés en reçoivent un nouveau, signé par la clé de réserve qui prend le relais ; ceux hors ligne s’arrêtent en vérifiant le leur. À faire si la clé a fuité.';
}

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
 * sign a set), and revocation (refused at once; its standby key takes over without the root).
 */
export function SigningKeysCard() {
  const queryClient = useQueryClient();
  const keys = useQuery(signingKeysQuery).data ?? [];
  const keySet = useQuery(keySetQuery);
  const [pending, setPending] = useState<SigningKey | null>(null);
  const [isWorking, setIsWorking] = useState(false);

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
            <ListItem
              key={key.kid}
              disableGutters
              secondaryAction={
                key.state === 'revoked' ? null : (
                  <Button color="error" size="small" onClick={() => setPending(key)}>
                    Révoquer
                  </Button>
                )
              }
            >
              <ListItemText
                primary={`${shortKid(key.kid)} — ${SIGNING_KEY_PURPOSE_LABELS[key.purpose]} — ${SIGNING_KEY_STATE_LABELS[key.state]}`}
                secondary={keyDates(key)}
              />
            </ListItem>
          ))}
        </List>
      </CardContent>
      <ConfirmDialog
        open={pending !== null}
        title="Révoquer cette clé ?"
        confirmLabel="Révoquer"
        isBusy={isWorking}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      >
        {confirmText(pending)}
      </ConfirmDialog>
    </Card>
  );
}
