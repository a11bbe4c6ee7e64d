import {
  SIGNING_KEY_PURPOSE_LABELS,
  SIGNING_KEY_PURPOSES,
  SIGNING_KEY_STATE_LABELS,
  type SigningKey,
  type SigningKeyPurpose,
} from '@bot/contracts';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime } from '../../../components/admin-table/index.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import {
  revokeSigningKey,
  rotateSigningKey,
  signingKeysKeys,
  signingKeysQuery,
} from '../api/signing-keys.ts';

type Pending = { kind: 'rotate'; purpose: SigningKeyPurpose } | { kind: 'revoke'; key: SigningKey };

const shortKid = (kid: string) => `${kid.slice(0, 12)}…`;

const purposeOf = (pending: Pending | null): SigningKeyPurpose =>
  pending?.kind === 'revoke' ? pending.key.purpose : (pending?.purpose ?? 'lease');

function rotateTitle(pending: Pending | null): string {
  return purposeOf(pending) === 'lease' ? 'Changer la clé des baux' : 'Changer la clé des versions';
}

/** What a rotation or a revocation does, for the key concerned. */
function confirmText(pending: Pending | null): string {
  const isLease = purposeOf(pending) === 'lease';
  if (pending?.kind === 'revoke')
    return isLease
      ? 'Les baux signés par cette clé sont refusés tout de suite : les bots connectés en reçoivent un nouveau, ceux hors ligne s’arrêtent en vérifiant le leur. À faire si la clé a fuité.'
      : 'Les manifestes signés par cette clé sont refusés tout de suite : les bots demandent la mise à jour de nouveau et reçoivent un manifeste signé par la clé en service. À faire si la clé a fuité.';
  return isLease
    ? 'Les nouveaux baux seront signés par une nouvelle clé ; l’actuelle vérifie encore les siens jusqu’à leur fin.'
    : 'Les nouveaux manifestes des versions seront signés par une nouvelle clé ; l’actuelle reste publiée le temps que ses manifestes expirent.';
}

function keyDates(key: SigningKey): string {
  const parts = [`créée le ${formatDateTime(key.createdAt)}`];
  if (key.retiredAt) parts.push(`remplacée le ${formatDateTime(key.retiredAt)}`);
  if (key.revokedAt) parts.push(`révoquée le ${formatDateTime(key.revokedAt)}`);
  return parts.join(' · ');
}

/**
 * The keys that sign the bots' leases (docs/licensing.md): change the key in service (the previous
 * one still verifies its leases until they end) or revoke one (refused at once; connected bots get
 * a new lease, offline ones stop when they check theirs).
 */
export function SigningKeysCard() {
  const queryClient = useQueryClient();
  const keys = useQuery(signingKeysQuery).data ?? [];
  const [pending, setPending] = useState<Pending | null>(null);
  const [isWorking, setIsWorking] = useState(false);

  const confirm = async () => {
    if (!pending) return;
    setIsWorking(true);
    try {
      if (pending.kind === 'rotate') {
        const key = await rotateSigningKey(pending.purpose);
        notifySuccess(`Nouvelle clé en service : ${shortKid(key.kid)}`);
      } else {
        await revokeSigningKey(pending.key.kid);
        notifySuccess(`Clé ${shortKid(pending.key.kid)} révoquée.`);
      }
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
      <CardHeader
        title="Clés de signature"
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        action={
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            {SIGNING_KEY_PURPOSES.map((purpose) => (
              <Button
                key={purpose}
                variant="outlined"
                onClick={() => setPending({ kind: 'rotate', purpose })}
              >
                {purpose === 'lease' ? 'Changer la clé des baux' : 'Changer la clé des versions'}
              </Button>
            ))}
          </Stack>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        <Typography variant="body2" color="text.secondary">
          Chaque bot vérifie hors ligne le bail signé par ces clés, et le manifeste de chaque version avant de
          l’installer (clé des versions). Publiées sur /.well-known/jwks.json.
        </Typography>
        <List dense aria-label="Clés de signature">
          {keys.map((key) => (
            <ListItem
              key={key.kid}
              disableGutters
              secondaryAction={
                key.state === 'revoked' ? null : (
                  <Button color="error" size="small" onClick={() => setPending({ kind: 'revoke', key })}>
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
        title={pending?.kind === 'revoke' ? 'Révoquer cette clé ?' : `${rotateTitle(pending)} ?`}
        confirmLabel={pending?.kind === 'revoke' ? 'Révoquer' : rotateTitle(pending)}
        isBusy={isWorking}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      >
        {confirmText(pending)}
      </ConfirmDialog>
    </Card>
  );
}
